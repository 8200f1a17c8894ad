//! Time, kept deterministic. A run's clock is virtual: it starts at 0 and
//! moves only when a timeout fires (whole milliseconds) and by one
//! microsecond at every reading, so two readings always differ and never go
//! back. Monotonic time counts from the VM's start; system (wall-clock) time
//! adds a fixed origin, 2024-01-01T00:00:00Z, and the time zone is UTC.
//! The native time unit is the nanosecond, as on the BEAM on Linux.

use crate::bif::{Ctx, Flow, Table, badarg, int_arg, tuple2};

type R = Result<Term, Term>;
use crate::term::Term;

/// System time at the VM's start, in seconds since the Unix epoch.
const ORIGIN_S: i64 = 1_704_067_200;

pub fn register(t: &mut Table) {
    t.ctx("erlang", "monotonic_time", 0, |ctx, _| {
        Flow::Value(Term::Int(read_us(ctx) * 1000))
    });
    t.ctx("erlang", "monotonic_time", 1, |ctx, a| {
        in_unit(read_us(ctx), &a[0])
    });
    t.ctx("erlang", "system_time", 0, |ctx, _| {
        Flow::Value(Term::Int(system_us(ctx) * 1000))
    });
    t.ctx("erlang", "system_time", 1, |ctx, a| {
        in_unit(system_us(ctx), &a[0])
    });
    t.ctx("os", "system_time", 0, |ctx, _| {
        Flow::Value(Term::Int(system_us(ctx) * 1000))
    });
    t.ctx("os", "system_time", 1, |ctx, a| {
        in_unit(system_us(ctx), &a[0])
    });
    t.ctx("erlang", "timestamp", 0, timestamp);
    t.ctx("erlang", "now", 0, timestamp);
    t.ctx("os", "timestamp", 0, timestamp);
    t.pure("erlang", "time_offset", 0, |_| {
        Ok(Term::Int(ORIGIN_S * 1_000_000_000))
    });
    t.pure("erlang", "time_offset", 1, |a| {
        convert(ORIGIN_S, &Term::atom("second"), &a[0])
    });
    t.pure("erlang", "convert_time_unit", 3, |a| {
        convert(int_arg(&a[0])?, &a[1], &a[2])
    });
    t.ctx("erlang", "universaltime", 0, |ctx, _| {
        let (date, time) = now_utc(ctx);
        Flow::Value(tuple2(date, time))
    });
    t.ctx("erlang", "localtime", 0, |ctx, _| {
        let (date, time) = now_utc(ctx);
        Flow::Value(tuple2(date, time))
    });
    t.ctx("erlang", "date", 0, |ctx, _| Flow::Value(now_utc(ctx).0));
    t.ctx("erlang", "time", 0, |ctx, _| Flow::Value(now_utc(ctx).1));
    // The time zone is UTC: local time is universal time.
    t.pure("erlang", "universaltime_to_localtime", 1, |a| {
        Ok(a[0].clone())
    });
    t.pure("erlang", "localtime_to_universaltime", 1, |a| {
        Ok(a[0].clone())
    });
    t.pure("erlang", "localtime_to_universaltime", 2, |a| {
        Ok(a[0].clone())
    });
}

/// Reads the clock: microseconds since the VM's start.
fn read_us(ctx: &mut Ctx<'_>) -> i64 {
    ctx.vm.unique += 1;
    (ctx.vm.vclock * 1000 + ctx.vm.unique) as i64
}

/// The system time now, in microseconds since the Unix epoch (one reading).
pub(crate) fn system_us(ctx: &mut Ctx<'_>) -> i64 {
    ORIGIN_S * 1_000_000 + read_us(ctx)
}

/// Milliseconds since the VM's start (`statistics(wall_clock)`).
pub fn elapsed_ms(ctx: &mut Ctx<'_>) -> i64 {
    read_us(ctx) / 1000
}

/// Parts of a time unit per second: `second`, `millisecond`, ...,
/// `native` (nanoseconds), or a positive integer.
fn per_second(unit: &Term) -> Result<i64, Term> {
    Ok(match unit.as_atom().map(|a| a.name()) {
        Some("second" | "seconds") => 1,
        Some("millisecond" | "milli_seconds") => 1000,
        Some("microsecond" | "micro_seconds") => 1_000_000,
        Some("nanosecond" | "nano_seconds" | "native" | "perf_counter") => 1_000_000_000,
        _ => match unit {
            Term::Int(n) if *n > 0 => *n,
            _ => return Err(badarg()),
        },
    })
}

/// `erlang:convert_time_unit/3`: rounds towards minus infinity, as the BEAM.
fn convert(v: i64, from: &Term, to: &Term) -> R {
    let (from, to) = (per_second(from)?, per_second(to)?);
    let scaled = (v as i128 * to as i128).div_euclid(from as i128);
    Ok(Term::Int(scaled as i64))
}

fn in_unit(us: i64, unit: &Term) -> Flow {
    match convert(us, &Term::atom("microsecond"), unit) {
        Ok(t) => Flow::Value(t),
        Err(e) => Flow::error(e),
    }
}

/// `{MegaSecs, Secs, MicroSecs}` of system time.
fn timestamp(ctx: &mut Ctx<'_>, _: &[Term]) -> Flow {
    let us = system_us(ctx);
    Flow::Value(Term::tuple(vec![
        Term::Int(us / 1_000_000_000_000),
        Term::Int((us / 1_000_000) % 1_000_000),
        Term::Int(us % 1_000_000),
    ]))
}

/// `({Y, M, D}, {H, Mi, S})` (UTC) of the system time now.
fn now_utc(ctx: &mut Ctx<'_>) -> (Term, Term) {
    date_time(system_us(ctx).div_euclid(1_000_000))
}

/// `{Date, Time}` in UTC (the model's time zone) of `secs` since the Unix
/// epoch.
pub(crate) fn date_time(secs: i64) -> (Term, Term) {
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let rem = secs.rem_euclid(86_400);
    (
        Term::tuple(vec![Term::Int(y), Term::Int(m), Term::Int(d)]),
        Term::tuple(vec![
            Term::Int(rem / 3600),
            Term::Int(rem % 3600 / 60),
            Term::Int(rem % 60),
        ]),
    )
}

/// The proleptic Gregorian date of a day count from 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_day_counts() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(ORIGIN_S / 86_400), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn conversions_round_down() {
        let ms = |v| convert(v, &Term::atom("microsecond"), &Term::atom("millisecond"));
        assert!(matches!(ms(1999), Ok(Term::Int(1))));
        assert!(matches!(ms(-1), Ok(Term::Int(-1))));
    }
}
