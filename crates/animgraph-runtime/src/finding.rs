//! One finding type for every check: validation, bind, lint, the `.mres` loader and `.mskel`
//! validation all report [`Finding`]s, so tools (the CLI, the editor's problems panel) show one
//! list.
//!
//! A finding has a severity, a stable [`Code`], the model path of what it is about (such as
//! `Layers[0].Machine.Transitions[2].To`, or `bones[3].parent` in a skeleton), what is wrong and
//! how to fix it. A loader adds where in the file it came from (resource id, property, line,
//! column); a finding made from a model has none.

use std::fmt;

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The graph still loads and binds; something is probably not what the author meant.
    Warning,
    /// The graph cannot be bound until this is fixed.
    Error,
}

impl Severity {
    /// `error` or `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// What kind of finding it is; each has a stable id (`F001`, `L004`, ...) that tools and users
/// can match on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// `F001`: the file cannot be read as the format (size, encoding, JSON, container, resource
    /// types, references, value types), or a loader's warning about it (unknown properties,
    /// unused resources).
    File,
    /// `G001`: a rule of the graph model is broken ([`crate::graph::validate`]).
    Rule,
    /// `B001`: a clip the graph names is not in the backend (its samples are skipped).
    MissingClip,
    /// `B002`: a clip's length is zero or not finite (it plays as the shortest length).
    ClipLength,
    /// `S001`: a `.mskel` skeleton breaks a rule (names, parents, keys, curves, ...).
    Skeleton,
    /// `L001`...`L014`: lint (see [`crate::graph`]'s lint module, feature `lint`).
    Lint(LintCode),
}

impl Code {
    /// The stable id: `F001`, `G001`, `B001`, `S001`, `L001`...
    pub fn id(self) -> &'static str {
        match self {
            Code::File => "F001",
            Code::Rule => "G001",
            Code::MissingClip => "B001",
            Code::ClipLength => "B002",
            Code::Skeleton => "S001",
            Code::Lint(l) => l.id(),
        }
    }

    /// A short kebab-case name (`file`, `rule`, `unreachable-state`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Code::File => "file",
            Code::Rule => "rule",
            Code::MissingClip => "missing-clip",
            Code::ClipLength => "clip-length",
            Code::Skeleton => "skeleton",
            Code::Lint(l) => l.name(),
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

macro_rules! lint_codes {
    ($($variant:ident = $id:literal, $name:literal, $line:literal;)*) => {
        /// The lint checks, each with its stable id and name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum LintCode {
            $(
                #[doc = concat!("`", $id, "` `", $name, "`: ", $line, ".")]
                $variant,
            )*
        }

        impl LintCode {
            /// Every lint code, in id order.
            pub const ALL: &'static [LintCode] = &[$(LintCode::$variant),*];

            /// `L001`...
            pub const fn id(self) -> &'static str {
                match self { $(LintCode::$variant => $id,)* }
            }

            /// `unreachable-state`...
            pub const fn name(self) -> &'static str {
                match self { $(LintCode::$variant => $name,)* }
            }

            /// What it finds, in one line.
            pub const fn summary(self) -> &'static str {
                match self { $(LintCode::$variant => $line,)* }
            }
        }
    };
}

lint_codes! {
    UnreachableState = "L001", "unreachable-state", "no path reaches the state from its machine's entry";
    ContradictoryConditions = "L002", "contradictory-conditions", "the transition's conditions cannot all hold";
    ImpossibleCondition = "L003", "impossible-condition", "a condition tests a value its parameter can never hold";
    ShadowedTransition = "L004", "shadowed-transition", "an earlier-ranked transition always fires first";
    ParameterNeverRead = "L005", "parameter-never-read", "nothing in the graph reads the parameter";
    TriggerNeverTested = "L006", "trigger-never-tested", "no condition tests the trigger";
    AnyStateEveryFrame = "L007", "any-state-every-frame", "a * transition with no conditions or exit time fires every frame";
    MissingClip = "L008", "missing-clip", "the skeleton has no clip of that name";
    MissingMaskBone = "L009", "missing-mask-bone", "the skeleton has no bone of that name";
    DegenerateBlendTriangle = "L010", "degenerate-blend-triangle", "a nearly flat triangle makes blend weights jump";
    ExitTimeBeforeFirstTime = "L011", "exit-time-before-first-time", "the exit time is below every time the state can start at";
    WindowOutsideTime = "L012", "window-outside-time", "part of the window lies outside the times its state can have";
    InertialWithoutDuration = "L013", "inertial-without-duration", "an inertial transition with Duration 0 has nothing to decay over";
    MarkersWithoutMarkers = "L014", "markers-without-markers", "marker sync on clips that have no markers";
}

/// One finding (see the [module docs](self)).
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// Error or warning.
    pub severity: Severity,
    /// What kind.
    pub code: Code,
    /// The model path of what it is about (`Layers[0].Machine.States[2]`; for a skeleton
    /// `bones[3].parent`); empty for the file as a whole.
    pub path: String,
    /// What it is about, in words (`state "Dead" in Base`), when the path alone does not say.
    pub subject: String,
    /// What is wrong (and, where it reads best in one sentence, how to fix it).
    pub message: String,
    /// How to fix it, when not already said in the message.
    pub fix: String,
    /// The resource id it came from (`t_jump`; `props` for the root resource's own properties),
    /// when a loader located it.
    pub resource: String,
    /// The property path inside that resource (`Conditions[0]`), when located.
    pub property: String,
    /// 1-based line in the file, when known.
    pub line: Option<usize>,
    /// 1-based column in the file, when known.
    pub column: Option<usize>,
    /// The parameter whose declared type this finding depends on (an operator or use that does
    /// not fit it), so a loader can drop it when that type itself was unreadable.
    pub parameter: Option<String>,
}

/// An error of code [`Code::File`] with nothing filled in: the base for struct-update syntax.
impl Default for Finding {
    fn default() -> Self {
        Finding::new(Severity::Error, Code::File, "", "")
    }
}

impl Finding {
    /// A finding about `path`, not located in a file.
    pub fn new(severity: Severity, code: Code, path: impl Into<String>, message: impl Into<String>) -> Self {
        Finding {
            severity,
            code,
            path: path.into(),
            subject: String::new(),
            message: message.into(),
            fix: String::new(),
            resource: String::new(),
            property: String::new(),
            line: None,
            column: None,
            parameter: None,
        }
    }

    /// An error.
    pub fn error(code: Code, path: impl Into<String>, message: impl Into<String>) -> Self {
        Finding::new(Severity::Error, code, path, message)
    }

    /// A warning.
    pub fn warning(code: Code, path: impl Into<String>, message: impl Into<String>) -> Self {
        Finding::new(Severity::Warning, code, path, message)
    }

    /// Whether this is an error (not a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Where it is: `resource.property` when located in a file, else the model path.
    pub fn location(&self) -> String {
        match (self.resource.is_empty(), self.property.is_empty()) {
            (false, false) => format!("{}.{}", self.resource, self.property),
            (false, true) => self.resource.clone(),
            (true, false) => self.property.clone(),
            (true, true) => self.path.clone(),
        }
    }
}

/// `error (line 14): t_land.To: no state "Mvoe" ...` (the line and column when known; the
/// place when there is one).
impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.severity.as_str())?;
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, " (line {l}, column {c})")?,
            (Some(l), None) => write!(f, " (line {l})")?,
            _ => {}
        }
        let location = self.location();
        if location.is_empty() {
            write!(f, ": {}", self.message)
        } else {
            write!(f, ": {location}: {}", self.message)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lint_ids_are_stable_and_in_order() {
        let ids: Vec<&str> = LintCode::ALL.iter().map(|c| c.id()).collect();
        let expected: Vec<String> = (1..=14).map(|i| format!("L{i:03}")).collect();
        assert_eq!(ids, expected);
        assert_eq!(Code::Lint(LintCode::ShadowedTransition).name(), "shadowed-transition");
    }

    #[test]
    fn a_located_finding_names_its_line_and_resource_and_an_unlocated_one_its_path() {
        let mut f = Finding::error(Code::Rule, "Layers[0].Machine.Entry", "no state \"Idle\"");
        assert_eq!(f.to_string(), "error: Layers[0].Machine.Entry: no state \"Idle\"");
        (f.resource, f.property, f.line) = ("m_base".into(), "Entry".into(), Some(7));
        assert_eq!(f.to_string(), "error (line 7): m_base.Entry: no state \"Idle\"");
    }
}
