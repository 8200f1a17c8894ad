//! A witness as a sequence diagram (SVG, or a self-contained HTML page
//! around it): a lane per process and per shared item, arrows for messages
//! and for reads and writes of shared items, the race's three events
//! highlighted, the consequence at the end. Each step's label is written
//! whole in a column right of the lanes (process, call, file and line), and
//! hovering a step shows its details (a `<title>`: step, process, call,
//! shared item, source location).
//!
//! Ordering arrows between shared-state events of different processes are
//! drawn only where happens-before (program order, messages, spawns) does not
//! already order them: the arrows that remain point at the race.

use std::collections::BTreeMap;

use racewit_confirm::goal::Failure;
use racewit_confirm::system::Access;
use racewit_confirm::verdict::Consequence;
use racewit_confirm::witness::{Witness, WitnessEvent};

use crate::erl_text::PidNames;

/// The narrowest lane; a lane is widened to hold its header whole.
const LANE_W: usize = 170;
/// Width of a character of the 11px monospace font, rounded up.
const CHAR_W: usize = 7;
const ROW_H: usize = 34;
const TOP: usize = 70;
const LEFT: usize = 30;

/// Vector clock: process lane index → count.
type Clock = BTreeMap<usize, usize>;

fn leq(a: &Clock, b: &Clock) -> bool {
    a.iter().all(|(k, v)| b.get(k).is_some_and(|w| w >= v))
}

fn join(a: &mut Clock, b: &Clock) {
    for (k, v) in b {
        let e = a.entry(*k).or_insert(0);
        *e = (*e).max(*v);
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

struct Layout {
    procs: Vec<String>,
    items: Vec<String>,
    /// Width of every lane: wide enough for the longest header.
    lane_w: usize,
}

impl Layout {
    fn new(events: &[WitnessEvent]) -> Layout {
        let mut procs: Vec<String> = Vec::new();
        let mut items: Vec<String> = Vec::new();
        for e in events {
            if !procs.contains(&e.process) {
                procs.push(e.process.clone());
            }
            if let Some(i) = shared_item(e)
                && !items.iter().any(|x| x == i)
            {
                items.push(i.to_string());
            }
        }
        // Item headers are bold 11px in a box; process names bold 13px.
        let widest = items
            .iter()
            .map(|i| i.chars().count() * (CHAR_W + 1) + 32)
            .chain(procs.iter().map(|p| p.chars().count() * (CHAR_W + 2) + 16))
            .max()
            .unwrap_or(0);
        Layout {
            procs,
            items,
            lane_w: widest.max(LANE_W),
        }
    }

    fn proc_x(&self, p: &str) -> usize {
        let i = self.procs.iter().position(|x| x == p).unwrap_or(0);
        LEFT + self.lane_w / 2 + i * self.lane_w
    }

    fn item_x(&self, item: &str) -> usize {
        let i = self.items.iter().position(|x| x == item).unwrap_or(0);
        LEFT + self.lane_w / 2 + (self.procs.len() + i) * self.lane_w
    }

    /// Where the lanes end (the column of labels starts after it; ordering
    /// arrows curve up to 30px right of the last lane's centre, within it).
    fn lanes_end(&self) -> usize {
        LEFT + (self.procs.len() + self.items.len()).max(1) * self.lane_w
    }
}

/// What a step's label says: its mark in the race, the process, the call
/// with terms as Erlang prints them, the file and line.
fn step_label(e: &WitnessEvent, names: Option<&PidNames>) -> String {
    let mark = match e.role.as_deref() {
        Some("read") => "(1) ",
        Some("interfering_write") => "(2) ",
        Some("stale_write") => "(3) ",
        _ => "",
    };
    let loc = match (&e.file, e.line) {
        (Some(f), Some(l)) => format!("  {}:{l}", crate::replay::shown_path(f)),
        _ => String::new(),
    };
    format!(
        "{mark}{}  {}{loc}",
        e.process,
        crate::erl_text::rewrite(&e.text, names)
    )
}

/// A step's hover details, one fact per line.
fn step_title(e: &WitnessEvent, names: Option<&PidNames>) -> String {
    let mut lines = vec![
        format!(
            "step {}{}: {}",
            e.step,
            if e.preemption { " (preemption)" } else { "" },
            e.process
        ),
        format!("call: {}", crate::erl_text::rewrite(&e.text, names)),
    ];
    if let Some(item) = &e.item {
        let how = match e.access {
            Some(Access::Read) => " (read)",
            Some(Access::Write) => " (write)",
            None => "",
        };
        lines.push(format!(
            "item: {}{how}",
            crate::erl_text::rewrite(item, names)
        ));
    }
    if let (Some(f), Some(l)) = (&e.file, e.line) {
        let col = e.column.map(|c| format!(":{c}")).unwrap_or_default();
        lines.push(format!("at: {}:{l}{col}", crate::replay::shown_path(f)));
    }
    match e.role.as_deref() {
        Some("read") => lines.push("the race: (1) the read".into()),
        Some("interfering_write") => lines.push("the race: (2) another process writes".into()),
        Some("stale_write") => lines.push("the race: (3) the stale write".into()),
        _ => {}
    }
    lines.join("\n")
}

/// The shared item of an event, when it is shared state (not a mailbox or a process).
fn shared_item(e: &WitnessEvent) -> Option<&str> {
    let item = e.item.as_deref()?;
    (!item.starts_with("mailbox ") && !item.starts_with("process ")).then_some(item)
}

fn row_y(i: usize) -> usize {
    TOP + 20 + i * ROW_H
}

/// Most lines of the consequence under the diagram.
const MAX_FOOT_LINES: usize = 12;
const FOOT_LINE_H: usize = 16;

/// What the witness ends in, in words, one entry per line (Erlang terms
/// printed over several lines stay so), at most [`MAX_FOOT_LINES`] of them;
/// and the whole text.
fn consequence_lines(w: &Witness, names: Option<&PidNames>) -> (Vec<String>, String) {
    let text = match (&w.verdict.consequence, &w.failure) {
        (Some(Consequence::Crash { process, reason }), _) => {
            format!("consequence: crash: {process} exited with {reason}")
        }
        (
            Some(Consequence::NonSerializable {
                observed,
                serial_outcomes,
            }),
            _,
        ) => {
            let state: Vec<String> = observed.lines().map(|l| format!("  {l}")).collect();
            format!(
                "consequence: non_serializable: no serial schedule ends in this state \
                 ({serial_outcomes} serial outcome(s) seen):\n{}",
                state.join("\n")
            )
        }
        (Some(Consequence::Stuck { processes }), _) => {
            format!(
                "consequence: stuck: {} blocked forever",
                processes.join(", ")
            )
        }
        (Some(Consequence::None), _) => match &w.verdict.harm_cut {
            None => {
                "consequence: none: the interleaving happens but does no visible harm".to_string()
            }
            Some(cut) => format!(
                "consequence: none: the interleaving happens but does no visible harm in the \
                 runs searched; {cut}"
            ),
        },
        (None, Some(Failure::Crash { process, reason })) => {
            format!("failure: crash: {process} exited with {reason}")
        }
        (None, Some(Failure::Deadlock { processes })) => {
            format!(
                "failure: deadlock: {} blocked forever",
                processes.join(", ")
            )
        }
        (None, None) => return (Vec::new(), String::new()),
    };
    let text = crate::erl_text::rewrite(&text, names);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if lines.len() > MAX_FOOT_LINES {
        lines.truncate(MAX_FOOT_LINES - 1);
        lines.push("… (the whole state shows on hover)".to_string());
    }
    (lines, text)
}

/// The SVG document; `names` name the run's raw pids in the texts.
pub fn svg(w: &Witness, names: Option<&PidNames>) -> String {
    let events = &w.trace;
    let layout = Layout::new(events);
    let (foot, foot_text) = consequence_lines(w, names);
    let labels: Vec<String> = events.iter().map(|e| step_label(e, names)).collect();
    let lanes_end = row_y(events.len()) + 20;
    let height = lanes_end + 30 + foot.len().max(1) * FOOT_LINE_H + 10;
    // The column of labels, right of the lanes, as wide as the longest label.
    let label_x = layout.lanes_end() + 10;
    let label_chars = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let foot_chars = foot.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let width = (label_x + label_chars * CHAR_W + LEFT).max(LEFT * 2 + foot_chars * CHAR_W);
    let mut s = String::new();
    s.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"monospace\" font-size=\"11\">\n"
    ));
    s.push_str("<defs><marker id=\"ah\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"9\" markerHeight=\"9\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"context-stroke\"/></marker></defs>\n");
    s.push_str(&format!(
        "<rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>\n"
    ));
    // Lanes.
    for p in &layout.procs {
        let x = layout.proc_x(p);
        s.push_str(&format!(
            "<text x=\"{x}\" y=\"{}\" text-anchor=\"middle\" font-weight=\"bold\" font-size=\"13\">{}</text>\n<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"#888\"/>\n",
            TOP - 10,
            esc(p),
            TOP,
            lanes_end
        ));
    }
    for it in &layout.items {
        let x = layout.item_x(it);
        s.push_str(&format!(
            "<g><title>shared item: {}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"22\" rx=\"4\" fill=\"#eef\" stroke=\"#99c\"/><text x=\"{x}\" y=\"{}\" text-anchor=\"middle\" font-weight=\"bold\">{}</text></g>\n<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\" stroke=\"#99c\" stroke-dasharray=\"5,4\"/>\n",
            esc(&crate::erl_text::rewrite(it, names)),
            x - layout.lane_w / 2 + 8,
            TOP - 26,
            layout.lane_w - 16,
            TOP - 11,
            esc(&crate::erl_text::rewrite(it, names)),
            TOP,
            lanes_end
        ));
    }
    // Happens-before: clocks per process and per event.
    let mut clocks: BTreeMap<String, Clock> = BTreeMap::new();
    let mut event_clock: Vec<Clock> = Vec::with_capacity(events.len());
    let mut pending_sends: Vec<(usize, String, String, Clock)> = Vec::new(); // (event, to, msg, clock)
    let mut message_arrows: Vec<(usize, usize)> = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let lane = layout
            .procs
            .iter()
            .position(|p| p == &e.process)
            .unwrap_or(0);
        let mut c = clocks.get(&e.process).cloned().unwrap_or_default();
        *c.entry(lane).or_insert(0) += 1;
        if let Some(msg) = e.text.strip_prefix("receive ")
            && let Some(pos) = pending_sends
                .iter()
                .position(|(_, to, m, _)| to == &e.process && m == msg)
        {
            let (from, _, _, sc) = pending_sends.remove(pos);
            join(&mut c, &sc);
            message_arrows.push((from, i));
        }
        if let (Some(item), Some((_, msg))) = (e.item.as_deref(), e.text.split_once(" ! "))
            && let Some(to) = item.strip_prefix("mailbox ")
        {
            pending_sends.push((i, to.to_string(), msg.to_string(), c.clone()));
        }
        if let Some((_, child)) = e.text.rsplit_once(" -> ")
            && e.item
                .as_deref()
                .is_some_and(|it| it.starts_with("process "))
        {
            clocks.insert(child.to_string(), c.clone());
        }
        clocks.insert(e.process.clone(), c.clone());
        event_clock.push(c);
    }
    // Message arrows.
    for (from, to) in &message_arrows {
        let (a, b) = (&events[*from], &events[*to]);
        s.push_str(&format!(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#2a7\" stroke-width=\"1.3\" marker-end=\"url(#ah)\"/>\n",
            layout.proc_x(&a.process),
            row_y(*from),
            layout.proc_x(&b.process),
            row_y(*to)
        ));
    }
    // Ordering arrows between conflicting shared-state events not ordered by happens-before.
    let mut last_on_item: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, e) in events.iter().enumerate() {
        let Some(item) = shared_item(e) else { continue };
        if let Some(&j) = last_on_item.get(item) {
            let prev = &events[j];
            let conflict = prev.access == Some(Access::Write) || e.access == Some(Access::Write);
            if prev.process != e.process && conflict && !leq(&event_clock[j], &event_clock[i]) {
                let x = layout.item_x(item) + 14;
                s.push_str(&format!(
                    "<path d=\"M{x},{} C{},{} {},{} {x},{}\" fill=\"none\" stroke=\"#d33\" stroke-width=\"1.5\" stroke-dasharray=\"4,3\" marker-end=\"url(#ah)\"/>\n",
                    row_y(j),
                    x + 30,
                    row_y(j),
                    x + 30,
                    row_y(i),
                    row_y(i)
                ));
            }
        }
        last_on_item.insert(item, i);
    }
    // Events: each step a group with its hover details, its dot and
    // arrow in the lanes, its label whole in the column right of them.
    for (i, e) in events.iter().enumerate() {
        let y = row_y(i);
        let px = layout.proc_x(&e.process);
        let role = e.role.as_deref();
        let (color, stroke) = match role {
            Some("read" | "interfering_write" | "stale_write") => ("#c00", 3),
            _ => ("#36c", 1),
        };
        s.push_str(&format!(
            "<g><title>{}</title>\n",
            esc(&step_title(e, names))
        ));
        if role.is_some() {
            s.push_str(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fdd\" opacity=\"0.5\"/>\n",
                LEFT / 2,
                y - ROW_H / 2 + 2,
                width - LEFT,
                ROW_H - 4
            ));
        }
        if let Some(item) = shared_item(e) {
            let ix = layout.item_x(item);
            let (x1, x2) = match e.access {
                Some(Access::Read) => (ix, px),
                _ => (px, ix),
            };
            s.push_str(&format!(
                "<line x1=\"{x1}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\" stroke=\"{color}\" stroke-width=\"{stroke}\" marker-end=\"url(#ah)\"/>\n"
            ));
        }
        // A faint guide from the step's dot to its label.
        s.push_str(&format!(
            "<line x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#ddd\" stroke-dasharray=\"1,3\"/>\n",
            px + 6,
            label_x - 4
        ));
        s.push_str(&format!(
            "<circle cx=\"{px}\" cy=\"{y}\" r=\"4\" fill=\"{color}\"/>\n"
        ));
        s.push_str(&format!(
            "<text x=\"{label_x}\" y=\"{}\" fill=\"{}\" style=\"white-space:pre\">{}</text>\n</g>\n",
            y + 4,
            if role.is_some() { "#900" } else { "#222" },
            esc(&labels[i])
        ));
    }
    // Consequence.
    s.push_str(&format!("<g><title>{}</title>\n", esc(&foot_text)));
    for (i, line) in foot.iter().enumerate() {
        s.push_str(&format!(
            "<text x=\"{LEFT}\" y=\"{}\" font-weight=\"bold\" fill=\"#900\" style=\"white-space:pre\">{}</text>\n",
            lanes_end + 30 + i * FOOT_LINE_H,
            esc(line)
        ));
    }
    s.push_str("</g>\n");
    s.push_str(&format!(
        "<text x=\"{LEFT}\" y=\"22\" font-size=\"14\" font-weight=\"bold\">{}</text>\n",
        esc(&format!("racewit witness: {}", w.subject))
    ));
    s.push_str("</svg>\n");
    s
}

/// A self-contained HTML page with the diagram and a legend.
pub fn html(w: &Witness, names: Option<&PidNames>) -> String {
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>racewit witness {}</title>\n<style>body{{font-family:sans-serif;margin:20px}} .legend span{{margin-right:18px}}</style></head>\n<body>\n<p class=\"legend\"><span style=\"color:#c00\">■ the race: (1) read, (2) another process writes, (3) stale write</span><span style=\"color:#2a7\">→ message</span><span style=\"color:#d33\">⇢ order not implied by messages</span><span style=\"color:#36c\">→ read/write of a shared item</span><span>hover a step for its details</span></p>\n{}\n</body></html>\n",
        esc(&w.subject),
        svg(w, names)
    )
}
