//! HL-RBG macro expansion: the paper's examples, error reporting, and
//! robustness against blow-up and deep nesting.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use rbg_lang::expand::{expand, expand_with_limits, Limits, Sections};
use rbg_lang::lexer::lex;
use rbg_lang::{Error, SourceFile, Span};

/// The four sections other than `#rules`, with no macros.
const OTHER: &str = "#players = white(100), black(100)\n#pieces = e\n#variables =\n#board = rectangle(up, down, left, right, [e])\n";

fn run(text: &str) -> Result<Sections, Error> {
    let tokens = lex(text).expect("lexes");
    expand(&tokens, text.len())
}

/// Expands `defs` followed by the other sections and `#rules = rules`,
/// returning the expanded rules as space-separated token texts.
fn rules(defs: &str, rules: &str) -> String {
    let text = format!("{defs}\n{OTHER}#rules = {rules}\n");
    let s = run(&text).unwrap_or_else(|e| {
        panic!(
            "{text}\n{}",
            SourceFile::new("t", text.clone()).diagnostic(e)
        )
    });
    texts(&s.rules.tokens)
}

fn texts(tokens: &[rbg_lang::lexer::Token]) -> String {
    tokens
        .iter()
        .map(|t| t.kind.text())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The error for `text`: (line, column, message, the error itself).
fn error(text: &str) -> (usize, usize, String, Error) {
    let e = run(text).expect_err("expected an expansion error");
    let d = SourceFile::new("t", text).diagnostic(e.clone());
    (d.line, d.column, d.error.message.clone(), e)
}

/// `error` for a file made of `defs`, the other sections and `#rules = rules`
/// (the definitions start on line 1).
fn rules_error(defs: &str, rules: &str) -> (usize, usize, String, Error) {
    error(&format!("{defs}\n{OTHER}#rules = {rules}\n"))
}

fn span_of(text: &str, needle: &str) -> Span {
    let i = text.find(needle).expect("needle present");
    Span::new(i, i + needle.len())
}

// ---------------------------------------------------------------------------
// The paper's examples ("Macro system").

const PAPER_M: &str = "
#m0 = m1 // will be interpreted as a plain \"m1\" string, macro m1 is defined later
#m1 = x
#m2 = m1 // will be replaced with \"x\"
#m3(a;b) = a + b
#m4 = m3(x;y) // will be replaced with x + y
#m5 = m3(;) // will be replaced with a single +
#m6 = m3 // will be interpreted as plain \"m3\", no arguments given
#m7 = m1(x) // will be interpreted as \"x (x)\"
";

#[test]
fn paper_instantiation_examples() {
    assert_eq!(rules(PAPER_M, "m0"), "m1");
    assert_eq!(rules(PAPER_M, "m1"), "x");
    assert_eq!(rules(PAPER_M, "m2"), "x");
    assert_eq!(rules(PAPER_M, "m4"), "x + y");
    assert_eq!(rules(PAPER_M, "m5"), "+");
    assert_eq!(rules(PAPER_M, "m6"), "m3");
    assert_eq!(rules(PAPER_M, "m7"), "x ( x )");
    assert_eq!(rules(PAPER_M, "m3(p;q) m3"), "p + q m3");
}

#[test]
fn paper_overloading_examples() {
    let legal = "#m1 = x\n#m2(a) = a\n#m2(a;b) = a+b\n";
    assert_eq!(rules(legal, "m1 m2(y) m2(y;z)"), "x y y + z");

    let text = format!("{legal}#m2(b) = b\n{OTHER}#rules = x\n");
    let (line, col, msg, e) = error(&text);
    assert_eq!((line, col), (4, 1));
    assert_eq!(msg, "macro `m2` with 1 parameter is defined twice");
    assert_eq!(e.secondary[0].0, span_of(&text, "#m2(a)"));

    let text = format!("{legal}#m2 = x\n{OTHER}#rules = x\n");
    let (line, col, msg, e) = error(&text);
    assert_eq!((line, col), (4, 1));
    assert_eq!(
        msg,
        "macro `m2` is defined both without and with parameters"
    );
    assert_eq!(e.secondary[0].0, span_of(&text, "#m2(a)"));

    // The other way round, and a 0-arity macro defined twice.
    let (line, col, msg, _) = rules_error("#m = x\n#m(a) = a", "x");
    assert_eq!((line, col), (2, 1));
    assert_eq!(msg, "macro `m` is defined both without and with parameters");
    let (line, col, msg, _) = rules_error("#m = x\n#m = y", "x");
    assert_eq!((line, col), (2, 1));
    assert_eq!(msg, "macro `m` is defined twice");
}

const PAPER_PASTE: &str = "
#m1 = x~y
#m2 = m1 // will be replaced with \"xy\"
#m3(a;b) = a~b
#m4 = m3(x;y) // will be replaced with \"xy\"
#m5 = m3(8;y) // \"8y\" is not valid RBG token
#m6 = m3(1;2) // will be interpreted as \"12\"
#m7 = m3(x~y;z) // will be interpreted as \"xyz\"
";

#[test]
fn paper_paste_examples() {
    assert_eq!(rules(PAPER_PASTE, "m2"), "xy");
    assert_eq!(rules(PAPER_PASTE, "m4"), "xy");
    assert_eq!(rules(PAPER_PASTE, "m6"), "12");
    assert_eq!(rules(PAPER_PASTE, "m7"), "xyz");
    assert_eq!(rules(PAPER_PASTE, "m3(x;y)"), "xy");
    assert_eq!(rules(PAPER_PASTE, "m3(1;2)"), "12");

    // The `~` of `#m3(a;b) = a~b` is on line 4, column 13.
    let (line, col, msg, e) = rules_error(PAPER_PASTE, "m5");
    assert_eq!((line, col), (4, 13));
    assert_eq!(
        msg,
        "invalid token paste: `8` ~ `y` gives `8y`, which is not a single token"
    );
    // Points back at the use in #rules.
    assert!(!e.secondary.is_empty());
    let (line, col, msg, _) = rules_error(PAPER_PASTE, "m3(8;y)");
    assert_eq!((line, col), (4, 13));
    assert!(msg.contains("`8y`"));
}

#[test]
fn paper_breakthrough_example() {
    let defs = "
#anySquare = (up* + down*)(left* + right*)
#pickUpPiece(color) = {color~Pawn}[empty]
#basicMove(color;oppositeColor;forwardDirection) =
  pickUpPiece(color)
  (
    forwardDirection left {empty, oppositeColor~Pawn}
    + forwardDirection {empty}
    + forwardDirection right {empty, oppositeColor~Pawn}
  )[color~Pawn]
#endGame = ->>{}
#checkForWin(color;oppositeColor;forwardDirection) =
  [$ color=1][$ oppositeColor=0]
  (
    {! forwardDirection} endGame
    + {? forwardDirection} ->oppositeColor
  )
#fullMove(color;oppositeColor;forwardDirection)=
  anySquare
  basicMove(color;oppositeColor;forwardDirection)
  checkForWin(color;oppositeColor;forwardDirection)
";
    let got = rules(
        defs,
        "->white ( fullMove(white;black;up) fullMove(black;white;down) )*",
    );
    let expected = "->white ( (up* + down*)(left* + right*) {whitePawn}[empty] \
        ( up left {empty, blackPawn} + up {empty} + up right {empty, blackPawn} )[whitePawn] \
        [$ white=1][$ black=0] ( {! up} ->>{} + {? up} ->black ) \
        (up* + down*)(left* + right*) {blackPawn}[empty] \
        ( down left {empty, whitePawn} + down {empty} + down right {empty, whitePawn} )[blackPawn] \
        [$ black=1][$ white=0] ( {! down} ->>{} + {? down} ->white ) )*";
    assert_eq!(got, texts(&lex(expected).unwrap()));
}

// ---------------------------------------------------------------------------
// Calls, arguments, contexts.

#[test]
fn arguments_split_on_round_parentheses_only() {
    // As in the suite's arimaa: `{` and `}` are separate arguments.
    let defs = "#f(b;e) = <b x e>";
    assert_eq!(rules(defs, "f(back {;})"), "< back { x } >");
    assert_eq!(rules(defs, "f(back [;])"), "< back [ x ] >");
    assert_eq!(rules(defs, "f((a;b);c)"), "< ( a ; b ) x c >");
    assert_eq!(rules(defs, "f(;)"), "< x >");
    let (line, col, msg, _) = rules_error(defs, "f(a;b;c)");
    assert_eq!((line, col), (6, 10));
    assert_eq!(msg, "macro `f` takes 2 arguments, 3 given");
    let (_, _, msg, _) = rules_error("#g(a)=a #g(a;b)=a #g(a;b;c)=a", "g()g(;;;)");
    assert_eq!(msg, "macro `g` takes 1, 2 or 3 arguments, 4 given");
    let (_, _, msg, _) = rules_error("#g(a)=a #g(a;b)=a", "g(;;)");
    assert_eq!(msg, "macro `g` takes 1 or 2 arguments, 3 given");
    let (_, _, msg, _) = rules_error("#g(a)=a", "g(;)");
    assert_eq!(msg, "macro `g` takes 1 argument, 2 given");
}

#[test]
fn only_earlier_macros_are_visible() {
    // Overloads defined after the use are not visible there.
    let defs = "#g(a)=a #h = g(p;q) #g(a;b)=b";
    let (line, col, msg, _) = rules_error(defs, "h");
    assert_eq!((line, col), (1, 14));
    assert_eq!(msg, "macro `g` takes 1 argument, 2 given");
    assert_eq!(rules(defs, "g(p;q)"), "q");
    // A macro used in its own body is a plain token.
    assert_eq!(rules("#m = m x", "m"), "m x");
    assert_eq!(rules("#m(a) = m(a) a", "m(y)"), "m ( y ) y");
    // A macro defined after #rules is not visible in #rules.
    let text = format!("{OTHER}#rules = late\n#late = x\n");
    assert_eq!(texts(&run(&text).unwrap().rules.tokens), "late");
}

/// The parse error of `defs` + the other sections + `#rules = rules`:
/// (line, column, message).
fn parse_error(defs: &str, rules: &str) -> (usize, usize, String) {
    let text = format!("{defs}\n{OTHER}#rules = {rules}\n");
    let e = rbg_lang::parse_str(&text).expect_err("expected an error");
    let d = SourceFile::new("t", text).diagnostic(e);
    (d.line, d.column, d.error.message.clone())
}

#[test]
fn macros_left_unexpanded_are_named_as_such() {
    // With parameters but used without arguments.
    let (line, col, msg) = parse_error("#m(x; y) = ->x", "m");
    assert_eq!((line, col), (6, 10));
    assert_eq!(
        msg,
        "macro `m` takes 2 arguments but is used without `(`: write `m(x; y)`"
    );
    // Used in its own definition, with and without parameters.
    let (line, col, msg) = parse_error("#m = ->white m", "m");
    assert_eq!((line, col), (1, 14));
    assert_eq!(
        msg,
        "macro `m` is used in its own definition: macros cannot be recursive"
    );
    let (_, _, msg) = parse_error("#m(a) = ->a m(a)", "m(white)");
    assert_eq!(
        msg,
        "macro `m` is used in its own definition: macros cannot be recursive"
    );
    // Defined in terms of each other.
    let (line, col, msg) = parse_error("#m = n\n#n = m", "m");
    assert_eq!((line, col), (1, 6));
    assert_eq!(
        msg,
        "macro `n` is defined after macro `m`, which uses it: a definition sees only the macros above it (so macros cannot be recursive)"
    );
    // Used by the rules before its definition.
    let text = format!("{OTHER}#rules = late\n#late = ->white\n");
    let e = rbg_lang::parse_str(&text).unwrap_err();
    assert!(
        e.message
            .starts_with("macro `late` is defined after section `#rules`, which uses it"),
        "{e}"
    );
    // A plain token that is fine where it stands stays fine.
    let text = format!("#e(x) = x\n{OTHER}#rules = ->white [e]\n");
    assert!(rbg_lang::parse_str(&text).is_ok());
}

#[test]
fn arguments_are_expanded_in_the_callers_context() {
    let defs = "#x = outer\n#f(a) = [a]\n#g(x) = f(x x)\n#h(p) = f(p~q)";
    // `x` in g's argument list is g's parameter.
    assert_eq!(rules(defs, "g(1)"), "[ 1 1 ]");
    // In a section, `x` is the macro.
    assert_eq!(rules(defs, "f(x)"), "[ outer ]");
    // Parameters shadow macros.
    assert_eq!(rules(defs, "g(x)"), "[ outer outer ]");
    // Pasting inside an argument written in a macro body.
    assert_eq!(rules(defs, "h(z)"), "[ zq ]");
    // Substituted tokens are not rescanned with the following body tokens.
    assert_eq!(
        rules("#f(a;b)=a~b #k(a)=a(x)", "k(f) k(f(u;v))"),
        "f ( x ) uv ( x )"
    );
}

#[test]
fn paste_details() {
    assert_eq!(rules("#m = a~b~c", "m"), "abc");
    assert_eq!(rules("#m = - ~ >", "m"), "->");
    assert_eq!(rules("#m = -~>~>", "m"), "->>");
    assert_eq!(rules("#m(a;b) = a~b", "m(;y) m(x;) m(;)"), "y x");
    assert_eq!(rules("#m(a;b;c) = a~b~c", "m(x;;z)"), "xz");
    // Last token of the left operand, first token of the right operand.
    assert_eq!(rules("#m(a;b) = a~b", "m(p q;r s)"), "p qr s");
    // Operands may be macro calls.
    assert_eq!(
        rules("#z = zz #f(a) = a a #m = f(x)~f(y) z~z", "m"),
        "x xy y zzzz"
    );
    // Pasted identifiers are not expanded.
    assert_eq!(rules("#xy = bad #m = x~y", "m"), "xy");
    // `=` pasted with `=`.
    assert_eq!(rules("#m = =~=", "m"), "==");
}

#[test]
fn paste_spans() {
    let text = format!("#m = ab~cd~e\n#f(a) = a~q\n{OTHER}#rules = m f(z)\n");
    let s = run(&text).unwrap();
    let t = &s.rules.tokens;
    assert_eq!(t[0].span, span_of(&text, "ab~cd~e"));
    // z comes from the argument, q from the body: the `~`'s span.
    let tilde = span_of(&text, "~q").start as usize;
    assert_eq!(t[1].span, Span::new(tilde, tilde + 1));
}

#[test]
fn paste_errors() {
    let (line, col, msg, _) = rules_error("#m = ~x", "m");
    assert_eq!((line, col), (1, 6));
    assert!(msg.contains("start"), "{msg}");
    let (line, col, msg, _) = rules_error("#m = x~", "m");
    assert_eq!((line, col), (1, 7));
    assert!(msg.contains("end"), "{msg}");
    let (line, col, msg, _) = rules_error("#m = x~~y", "m");
    assert_eq!((line, col), (1, 8));
    assert!(msg.contains("another `~`"), "{msg}");
    let (line, col, msg, _) = rules_error("#f(a)=a #m = f(x~)", "m");
    assert_eq!((line, col), (1, 17));
    assert!(msg.contains("end"), "{msg}");
    let (line, col, msg, _) = rules_error("#f(a)=a #m = f(;~x)", "m");
    assert_eq!((line, col), (1, 17));
    assert!(msg.contains("start"), "{msg}");
    // `~` written in a section, also inside an argument.
    let (line, col, msg, _) = rules_error("", "x~y");
    assert_eq!((line, col), (6, 11));
    assert_eq!(
        msg,
        "token pasting with `~` is only allowed inside macro definitions"
    );
    let (line, col, _, _) = rules_error("#f(a)=a", "f(x~y)");
    assert_eq!((line, col), (6, 13));
    let (line, col, msg, _) = rules_error("#m = {~x", "m");
    assert_eq!((line, col), (1, 7));
    assert!(msg.contains("`{x`"), "{msg}");
    // An unused macro is never expanded, so its errors go unnoticed.
    assert_eq!(rules("#m = ~ ~", "x"), "x");
}

#[test]
fn unclosed_argument_lists() {
    let (line, col, msg, _) = rules_error("#f(a)=a", "f(x");
    assert_eq!((line, col), (6, 10));
    assert_eq!(
        msg,
        "unclosed argument list of macro `f`: expected `)`, found the end of the file"
    );
    let text = format!("#f(a)=a\n#m = f(x (y)\n{OTHER}#rules = m\n");
    let (line, col, msg, e) = error(&text);
    assert_eq!((line, col), (2, 6));
    assert_eq!(
        msg,
        "unclosed argument list of macro `f`: expected `)`, found the end of the definition of macro `m`"
    );
    let at = span_of(&text, "f(x").start as usize;
    assert_eq!(e.span, Span::new(at, at + 2));
    let text = format!("#f(a)=a\n#rules = f(x\n{OTHER}");
    let (_, _, msg, _) = error(&text);
    assert!(msg.ends_with("found the end of section `#rules`"), "{msg}");
}

// ---------------------------------------------------------------------------
// Definition errors.

#[test]
fn definition_errors() {
    let (line, col, msg, _) = error("x #players = a");
    assert_eq!((line, col), (1, 1));
    assert!(msg.starts_with("expected `#`"), "{msg}");
    let (line, col, msg, _) = error("#players = a # = b");
    assert_eq!((line, col), (1, 16));
    assert!(msg.contains("found `=`"), "{msg}");
    let (line, col, msg, _) = error("#players = a #");
    assert_eq!((line, col), (1, 15));
    assert!(msg.contains("found the end of the file"), "{msg}");
    let (line, col, msg, _) = rules_error("#m x", "x");
    assert_eq!((line, col), (1, 4));
    assert_eq!(msg, "expected `=` or `(` after macro name `#m`, found `x`");
    let (line, col, msg, _) = error("#players x");
    assert_eq!((line, col), (1, 10));
    assert_eq!(msg, "expected `=` after `#players`, found `x`");
    let (line, col, msg, _) = rules_error("#m(a) x", "x");
    assert_eq!((line, col), (1, 7));
    assert!(
        msg.starts_with("expected `=` after the parameters"),
        "{msg}"
    );
    let (line, col, msg, _) = rules_error("#m() = x", "x");
    assert_eq!((line, col), (1, 4));
    assert!(msg.starts_with("expected a parameter name"), "{msg}");
    let (line, col, msg, _) = rules_error("#m(a,b) = x", "x");
    assert_eq!((line, col), (1, 5));
    assert!(msg.contains("`;` or `)`"), "{msg}");
    let (line, col, msg, e) = rules_error("#m(a;b;a) = x", "x");
    assert_eq!((line, col), (1, 8));
    assert_eq!(msg, "duplicate parameter `a` of macro `m`");
    assert_eq!(e.secondary[0].0, Span::new(3, 4));
    let (line, col, msg, _) = rules_error("#rules(a) = x", "x");
    assert_eq!((line, col), (1, 1));
    assert!(msg.contains("section name"), "{msg}");
}

#[test]
fn section_errors() {
    let text = format!("{OTHER}#rules = x\n#pieces = y\n");
    let (line, col, msg, e) = error(&text);
    assert_eq!((line, col), (6, 1));
    assert_eq!(msg, "section `#pieces` is defined twice");
    assert_eq!(e.secondary[0].0, span_of(&text, "#pieces"));
    let text = "#players = a #pieces = b #board = c #rules = d";
    let (_, _, msg, e) = error(text);
    assert!(msg.starts_with("missing section `#variables`"), "{msg}");
    assert_eq!(e.span, Span::new(text.len(), text.len()));
    let (_, _, msg, _) = error("");
    assert!(msg.starts_with("missing section `#players`"), "{msg}");
    // Sections in any order, interleaved with macros.
    let text = "#m = q #rules = m #board = m #n = r #variables = n #pieces = #players = m n";
    let s = run(text).unwrap();
    assert_eq!(texts(&s.rules.tokens), "q");
    assert_eq!(texts(&s.board.tokens), "q");
    assert_eq!(texts(&s.variables.tokens), "r");
    assert_eq!(texts(&s.pieces.tokens), "");
    assert_eq!(texts(&s.players.tokens), "q r");
    assert_eq!(s.players.header, span_of(text, "#players"));
    assert_eq!(s.end, Span::new(text.len(), text.len()));
}

// ---------------------------------------------------------------------------
// Robustness: blow-up and nesting, on 2 MiB stacks.

/// Runs `f` on a thread with a 2 MiB stack (the default for test threads,
/// made explicit here).
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no panic")
}

/// Expands `text` on a 2 MiB stack; returns the texts of the `#rules`
/// tokens and the time taken by the expansion alone (lexing excluded).
fn timed(text: &str) -> (Result<Vec<String>, Error>, Duration) {
    let text = text.to_string();
    on_small_stack(move || {
        let tokens = lex(&text).expect("lexes");
        let t = Instant::now();
        let r = expand(&tokens, text.len());
        let time = t.elapsed();
        let r = r.map(|s| {
            s.rules
                .tokens
                .iter()
                .map(|t| t.kind.text().to_string())
                .collect()
        });
        (r, time)
    })
}

/// Like `error`, on a 2 MiB stack, asserting the expansion returns quickly.
fn quick_error(text: &str) -> (usize, usize, String, Error) {
    let (r, time) = timed(text);
    assert!(time < QUICK, "took {time:?}");
    let e = r.expect_err("expected an expansion error");
    let d = SourceFile::new("t", text).diagnostic(e.clone());
    (d.line, d.column, d.error.message.clone(), e)
}

/// "Quick": a bound that catches exponential blow-up (which takes minutes),
/// not a benchmark: the expansions take milliseconds, but a loaded shared
/// machine can stall a test for seconds.
const QUICK: Duration = Duration::from_secs(10);

#[test]
fn exponential_blow_up_is_bounded() {
    let mut defs = String::from("#m0 = x\n");
    for i in 1..=48 {
        defs.push_str(&format!("#m{i} = m{} m{}\n", i - 1, i - 1));
    }
    let text = format!("{defs}{OTHER}#rules = a m48\n");
    let (line, col, msg, e) = quick_error(&text);
    assert_eq!(msg, "macro expansion exceeds 2000000 tokens");
    assert_eq!((line, col), (54, 12));
    let at = text.rfind("m48").unwrap();
    assert_eq!(e.span, Span::new(at, at + 3));

    // Bodies that expand to nothing still count.
    let mut defs = String::from("#m0 =\n");
    for i in 1..=48 {
        defs.push_str(&format!("#m{i} = m{} m{}\n", i - 1, i - 1));
    }
    let text = format!("{defs}{OTHER}#rules = m48\n");
    let r = quick_error(&text);
    assert_eq!(r.2, "macro expansion exceeds 2000000 tokens");
    assert_eq!((r.0, r.1), (54, 10));

    // Through arguments.
    let mut defs = String::from("#m0(a) = a a\n");
    for i in 1..=48 {
        defs.push_str(&format!("#m{i}(a) = m{}(m{}(a))\n", i - 1, i - 1));
    }
    let text = format!("{defs}{OTHER}#rules = m48(x)\n");
    let r = quick_error(&text);
    assert_eq!(r.2, "macro expansion exceeds 2000000 tokens");
    assert_eq!((r.0, r.1), (54, 10));
}

#[test]
fn token_limit_is_configurable() {
    let text = format!("#m = a b c\n{OTHER}#rules = m m\n");
    let tokens = lex(&text).unwrap();
    let small = Limits {
        max_tokens: 5,
        ..Limits::default()
    };
    let e = expand_with_limits(&tokens, text.len(), small).unwrap_err();
    assert_eq!(e.message, "macro expansion exceeds 5 tokens");
    // The second use of `m` is the outermost use when the limit is hit.
    let at = text.rfind('m').unwrap();
    assert_eq!(e.span, Span::new(at, at + 1));
    let ok = Limits {
        max_tokens: 6,
        ..Limits::default()
    };
    assert!(expand_with_limits(&tokens, text.len(), ok).is_ok());
}

#[test]
fn paste_text_is_bounded() {
    // Long pasted identifiers, doubling in length.
    let mut defs = String::from("#m0 = x\n");
    for i in 1..=40 {
        defs.push_str(&format!("#m{i} = m{}~m{}\n", i - 1, i - 1));
    }
    let text = format!("{defs}{OTHER}#rules = m40\n");
    let r = quick_error(&text);
    assert_eq!((r.0, r.1), (46, 10));
    assert!(
        r.2.starts_with("token pasting produces more than"),
        "{}",
        r.2
    );
}

#[test]
fn deep_definition_chains_hit_the_depth_limit() {
    let n = 100_000;
    let mut text = String::from("#m0 = x\n");
    for i in 1..=n {
        text.push_str(&format!("#m{i} = m{}\n", i - 1));
    }
    text.push_str(OTHER);
    text.push_str(&format!("#rules = m{n}\n"));
    let (line, col, msg, e) = quick_error(&text);
    assert_eq!(msg, "macro expansion nested deeper than 256 levels");
    // The use of m(n-256), written in the body of m(n-255) on line n-254.
    assert_eq!((line, col), (n - 254, 6 + (n - 255).to_string().len()));
    let at = span_of(&text, &format!("= m{}\n", n - 256)).start as usize + 2;
    assert_eq!(e.span, Span::new(at, at + 6));
    // With a secondary label at the use in #rules.
    let at = span_of(&text, &format!("#rules = m{n}")).start as usize + 9;
    assert_eq!(e.secondary[0].0, Span::new(at, at + 7));

    // 256 levels are fine.
    let mut text = String::from("#m0 = x\n");
    for i in 1..=255 {
        text.push_str(&format!("#m{i} = m{}\n", i - 1));
    }
    text.push_str(OTHER);
    text.push_str("#rules = m255\n");
    let (s, _) = timed(&text);
    assert_eq!(s.unwrap().join(" "), "x");
}

#[test]
fn deep_call_nesting_hits_the_depth_limit() {
    let n = 300_000;
    let mut text = format!("#m(a) = a\n{OTHER}#rules = ");
    let start = text.len();
    for _ in 0..n {
        text.push_str("m(");
    }
    text.push('x');
    for _ in 0..n {
        text.push(')');
    }
    text.push('\n');
    let (line, col, msg, e) = quick_error(&text);
    assert_eq!(msg, "macro expansion nested deeper than 256 levels");
    // The 257th `m`.
    assert_eq!(e.span.start as usize, start + 2 * 256);
    assert_eq!((line, col), (6, 10 + 2 * 256));

    // Deep plain parentheses inside an argument are no problem.
    let mut text = format!("#m(a) = a\n{OTHER}#rules = m(");
    text.push_str(&"(".repeat(n));
    text.push_str(&")".repeat(n));
    text.push(')');
    let (r, time) = timed(&text);
    assert!(time < QUICK, "took {time:?}");
    assert_eq!(r.unwrap().len(), 2 * n);

    // Nested calls within the limit work.
    let mut text = format!("#m(a) = [a]\n{OTHER}#rules = ");
    text.push_str(&"m(".repeat(100));
    text.push('x');
    text.push_str(&")".repeat(100));
    let (r, _) = timed(&text);
    assert_eq!(
        r.unwrap().join(" "),
        format!("{}x{}", "[ ".repeat(100), " ]".repeat(100))
    );
}

// ---------------------------------------------------------------------------
// Random token soups.

fn soup_token() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "#",
        "#",
        "#",
        "=",
        "=",
        "(",
        ")",
        "(",
        ")",
        ";",
        ";",
        "~",
        "~",
        "m0",
        "m1",
        "m2",
        "m3",
        "m0",
        "m1",
        "m2",
        "m3",
        "a",
        "b",
        "x",
        "players",
        "pieces",
        "variables",
        "board",
        "rules",
        "1",
        "8",
        "{",
        "}",
        "[",
        "]",
        "-",
        ">",
    ])
}

fn well_formed_prefix() -> &'static str {
    "#players = p(1) #pieces = e #variables = #board = b "
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_soups_never_panic(soup in prop::collection::vec(soup_token(), 0..80), prefix in any::<bool>()) {
        let mut text = String::new();
        if prefix {
            text.push_str(well_formed_prefix());
        }
        text.push_str(&soup.join(" "));
        let tokens = lex(&text).unwrap();
        let t = Instant::now();
        match expand(&tokens, text.len()) {
            Ok(s) => {
                let total: usize = (0..5).map(|i| s.get(i).map_or(0, |s| s.tokens.len())).sum();
                prop_assert!(total <= tokens.len() + 2_000_000);
            }
            Err(e) => {
                prop_assert!(e.span.start <= e.span.end);
                prop_assert!(e.span.end as usize <= text.len());
                prop_assert!(!e.message.is_empty());
            }
        }
        prop_assert!(t.elapsed() < QUICK);
    }

    #[test]
    fn random_macro_files_never_panic(
        bodies in prop::collection::vec(prop::collection::vec(soup_token(), 0..12), 1..8),
        rules in prop::collection::vec(soup_token(), 0..12),
    ) {
        // Well-formed definition headers with random bodies, so that
        // expansion (not just definition parsing) is exercised.
        let heads = ["#m0 =", "#m1(a) =", "#m2(a;b) =", "#m3 =", "#m1(a;b;x) =", "#m2(x) ="];
        let mut text = String::from(well_formed_prefix());
        for (i, body) in bodies.iter().enumerate() {
            text.push_str(heads[i % heads.len()]);
            text.push(' ');
            let body: Vec<&str> = body.iter().copied().filter(|t| *t != "#").collect();
            text.push_str(&body.join(" "));
            text.push(' ');
        }
        let rules: Vec<&str> = rules.iter().copied().filter(|t| *t != "#").collect();
        text.push_str("#rules = ");
        text.push_str(&rules.join(" "));
        let tokens = lex(&text).unwrap();
        let t = Instant::now();
        if let Err(e) = expand(&tokens, text.len()) {
            prop_assert!(e.span.end as usize <= text.len());
        }
        prop_assert!(t.elapsed() < QUICK);
    }
}
