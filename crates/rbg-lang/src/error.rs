//! Source files, spans and diagnostics.
//!
//! Every error the front end reports carries a [`Span`] into the one source
//! file being read. [`SourceFile::diagnostic`] turns it into a [`Diagnostic`]
//! that knows its file, line and column and renders the source line with a
//! caret (through `codespan-reporting`).

use std::fmt;

/// A half-open byte range `start..end` in a source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The span `start..end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// An error found in a description, before it is tied to a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Where the offending text is.
    pub span: Span,
    /// What is wrong, usually "expected X, found Y".
    pub message: String,
    /// Further places worth showing (e.g. a previous definition).
    pub secondary: Vec<(Span, String)>,
    /// Free-form notes printed under the snippet.
    pub notes: Vec<String>,
}

impl Error {
    /// An error at `span`.
    pub fn new(span: Span, message: impl Into<String>) -> Error {
        Error {
            span,
            message: message.into(),
            secondary: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Adds a labelled secondary location.
    pub fn with_secondary(mut self, span: Span, label: impl Into<String>) -> Error {
        self.secondary.push((span, label.into()));
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Error {
        self.notes.push(note.into());
        self
    }
}

impl fmt::Display for Error {
    /// The message and the byte range (a [`SourceFile`] gives line and
    /// column: [`SourceFile::diagnostic`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (at bytes {}..{})",
            self.message, self.span.start, self.span.end
        )?;
        for note in &self.notes {
            write!(f, "; {note}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// Result type of the front end.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A named source text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Name shown in messages (a path, or `<stdin>`).
    pub name: String,
    /// The text (invalid UTF-8 was replaced by U+FFFD before lexing).
    pub text: String,
}

impl SourceFile {
    /// A source file from its name and text; a leading UTF-8 byte-order
    /// mark is dropped (so columns on the first line count from the text).
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let mut text = text.into();
        if text.starts_with(crate::lexer::BOM) {
            text.drain(..crate::lexer::BOM.len_utf8());
        }
        SourceFile {
            name: name.into(),
            text,
        }
    }

    /// A source file from raw bytes; invalid UTF-8 becomes U+FFFD (and is then
    /// reported by the lexer as an unexpected character).
    pub fn from_bytes(name: impl Into<String>, bytes: &[u8]) -> SourceFile {
        SourceFile::new(name, String::from_utf8_lossy(bytes).into_owned())
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let offset = (offset as usize).min(self.text.len());
        let mut offset = offset;
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &self.text[..offset];
        let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = self.text[line_start..offset].chars().count() + 1;
        (line, col)
    }

    /// Ties an error to this file.
    pub fn diagnostic(&self, error: Error) -> Diagnostic {
        let (line, column) = self.line_col(error.span.start);
        Diagnostic {
            file: self.name.clone(),
            line,
            column,
            rendered: render(self, &error, Severity::Error),
            error: Box::new(error),
        }
    }

    /// Renders `error` as a warning: `file:line:col: warning: message`
    /// followed by the annotated source line.
    pub fn warning(&self, error: &Error) -> String {
        render(self, error, Severity::Warning)
    }
}

/// An error tied to a file, line and column, ready to print.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// File name.
    pub file: String,
    /// 1-based line of the error's start.
    pub line: usize,
    /// 1-based column (in characters) of the error's start.
    pub column: usize,
    /// The underlying error.
    pub error: Box<Error>,
    /// `file:line:col: error: message` followed by the annotated source line.
    pub rendered: String,
}

impl Diagnostic {
    /// The error message alone.
    pub fn message(&self) -> &str {
        &self.error.message
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.rendered)
    }
}

impl std::error::Error for Diagnostic {}

#[derive(Clone, Copy)]
enum Severity {
    Error,
    Warning,
}

fn render(file: &SourceFile, error: &Error, severity: Severity) -> String {
    use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
    use codespan_reporting::files::SimpleFile;
    use codespan_reporting::term::{self, termcolor::NoColor};

    let (line, col) = file.line_col(error.span.start);
    let len = file.text.len();
    let clamp = |s: Span| {
        let mut a = (s.start as usize).min(len);
        let mut b = (s.end as usize).clamp(a, len);
        while !file.text.is_char_boundary(a) {
            a -= 1;
        }
        while !file.text.is_char_boundary(b) {
            b += 1;
        }
        a..b
    };
    let simple = SimpleFile::new(file.name.as_str(), file.text.as_str());
    let mut labels = vec![Label::primary((), clamp(error.span))];
    for (span, label) in &error.secondary {
        labels.push(Label::secondary((), clamp(*span)).with_message(label.clone()));
    }
    let diag = match severity {
        Severity::Error => CsDiagnostic::error(),
        Severity::Warning => CsDiagnostic::warning(),
    };
    let diag = diag
        .with_message(error.message.clone())
        .with_labels(labels)
        .with_notes(error.notes.clone());
    let mut out = NoColor::new(Vec::new());
    let config = term::Config::default();
    let snippet = match term::emit(&mut out, &config, &simple, &diag) {
        Ok(()) => String::from_utf8_lossy(&out.into_inner()).into_owned(),
        Err(_) => String::new(),
    };
    // First line in the grep-friendly `file:line:col: error: message` form;
    // codespan's own header line is dropped in favour of it.
    let body: String = snippet.lines().skip(1).collect::<Vec<_>>().join("\n");
    let severity = match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    format!(
        "{}:{}:{}: {severity}: {}\n{}",
        file.name, line, col, error.message, body
    )
}
