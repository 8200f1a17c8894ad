//! The parser and lowering never panic or hang, whatever the tokens: every
//! prefix of real modules, every module with one token deleted, and
//! pseudo-random token soups all give a tree plus diagnostics.

use racewit_syntax::lex;
use racewit_syntax::lower::lower_file;
use racewit_syntax::parse::parse_file;
use racewit_syntax::source::{FileId, Span};
use racewit_syntax::token::{Keyword, Punct, Token, TokenKind};

fn run(tokens: &[Token]) {
    let (ast, _) = parse_file(tokens);
    let _ = lower_file(&ast, FileId(0));
}

fn test_modules() -> Vec<Vec<Token>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ir");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/ir exists")
        .flatten()
        .map(|e| e.path())
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).expect("reading a test module");
            lex::tokenize(FileId(0), &text).0
        })
        .collect()
}

#[test]
fn every_prefix_and_every_deletion_parses() {
    for tokens in test_modules() {
        for cut in 0..=tokens.len() {
            run(&tokens[..cut]);
        }
        for del in 0..tokens.len() {
            let mut v = tokens.clone();
            v.remove(del);
            run(&v);
        }
    }
}

#[test]
fn random_token_soup_parses() {
    let vocab: Vec<TokenKind> = [
        TokenKind::Atom("a".into()),
        TokenKind::Atom("module".into()),
        TokenKind::Atom("record".into()),
        TokenKind::Var("X".into()),
        TokenKind::Var("_".into()),
        TokenKind::Integer(racewit_syntax::token::IntLit::Small(1)),
        TokenKind::String("s".into()),
        TokenKind::Keyword(Keyword::Case),
        TokenKind::Keyword(Keyword::Of),
        TokenKind::Keyword(Keyword::End),
        TokenKind::Keyword(Keyword::Fun),
        TokenKind::Keyword(Keyword::Try),
        TokenKind::Keyword(Keyword::Catch),
        TokenKind::Keyword(Keyword::When),
        TokenKind::Keyword(Keyword::Receive),
        TokenKind::Keyword(Keyword::After),
        TokenKind::Keyword(Keyword::If),
        TokenKind::Keyword(Keyword::Begin),
        TokenKind::Keyword(Keyword::Maybe),
        TokenKind::Keyword(Keyword::Else),
        TokenKind::Keyword(Keyword::Not),
        TokenKind::Punct(Punct::LParen),
        TokenKind::Punct(Punct::RParen),
        TokenKind::Punct(Punct::LBracket),
        TokenKind::Punct(Punct::RBracket),
        TokenKind::Punct(Punct::LBrace),
        TokenKind::Punct(Punct::RBrace),
        TokenKind::Punct(Punct::BinOpen),
        TokenKind::Punct(Punct::BinClose),
        TokenKind::Punct(Punct::Comma),
        TokenKind::Punct(Punct::Semicolon),
        TokenKind::Punct(Punct::Dot),
        TokenKind::Punct(Punct::Period),
        TokenKind::Punct(Punct::Colon),
        TokenKind::Punct(Punct::Arrow),
        TokenKind::Punct(Punct::LeftArrow),
        TokenKind::Punct(Punct::ColonEq),
        TokenKind::Punct(Punct::DoubleArrow),
        TokenKind::Punct(Punct::Hash),
        TokenKind::Punct(Punct::Pipe),
        TokenKind::Punct(Punct::DoublePipe),
        TokenKind::Punct(Punct::Match),
        TokenKind::Punct(Punct::MaybeMatch),
        TokenKind::Punct(Punct::Minus),
        TokenKind::Punct(Punct::Slash),
        TokenKind::Punct(Punct::Bang),
        TokenKind::Punct(Punct::Less),
        TokenKind::Punct(Punct::Question),
        TokenKind::Eof,
    ]
    .into();
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..3000 {
        let len = (next() % 60) as usize;
        let tokens: Vec<Token> = (0..len)
            .map(|i| Token {
                kind: vocab[(next() % vocab.len() as u64) as usize].clone(),
                span: Span::new(FileId(0), i as u32, i as u32 + 1),
            })
            .collect();
        run(&tokens);
    }
}
