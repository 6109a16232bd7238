//! A transition: a rule for leaving one state for another, with a crossfade.

use super::GraphCondition;

/// Which side's transitions may cut into a running transition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TransitionInterrupt {
    /// Nothing may interrupt (not even `*` transitions).
    #[default]
    None,
    /// The source state's transitions and `*` ones.
    Source,
    /// The target state's transitions and `*` ones.
    Target,
    /// Both sides' and `*`, as one list by priority then list order.
    Both,
}

impl TransitionInterrupt {
    /// Every mode, in file order.
    pub const ALL: [TransitionInterrupt; 4] = [
        TransitionInterrupt::None,
        TransitionInterrupt::Source,
        TransitionInterrupt::Target,
        TransitionInterrupt::Both,
    ];

    /// The name used in `.mres` files.
    pub fn as_str(self) -> &'static str {
        match self {
            TransitionInterrupt::None => "None",
            TransitionInterrupt::Source => "Source",
            TransitionInterrupt::Target => "Target",
            TransitionInterrupt::Both => "Both",
        }
    }
}

/// How a crossfade's weight follows its progress `t` (0..1 over `Duration`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TransitionCurve {
    /// `t`.
    #[default]
    Linear,
    /// `t^2`: the target comes in slowly, then fast.
    EaseIn,
    /// `1 - (1 - t)^2`: fast, then settling.
    EaseOut,
    /// Smoothstep `3t^2 - 2t^3`: slow at both ends.
    EaseInOut,
}

impl TransitionCurve {
    /// Every curve, in file order.
    pub const ALL: [TransitionCurve; 4] = [
        TransitionCurve::Linear,
        TransitionCurve::EaseIn,
        TransitionCurve::EaseOut,
        TransitionCurve::EaseInOut,
    ];

    /// The name used in `.mres` files.
    pub fn as_str(self) -> &'static str {
        match self {
            TransitionCurve::Linear => "Linear",
            TransitionCurve::EaseIn => "EaseIn",
            TransitionCurve::EaseOut => "EaseOut",
            TransitionCurve::EaseInOut => "EaseInOut",
        }
    }

    /// The target's weight at progress `t` (0..=1; 0 and 1 map to themselves).
    pub fn apply(self, t: f32) -> f32 {
        match self {
            TransitionCurve::Linear => t,
            TransitionCurve::EaseIn => t * t,
            TransitionCurve::EaseOut => 1.0 - (1.0 - t) * (1.0 - t),
            TransitionCurve::EaseInOut => t * t * (3.0 - 2.0 * t),
        }
    }
}

/// How a transition blends from the source's pose to the target's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TransitionBlend {
    /// Both sides are sampled and their weights cross over `Duration`.
    #[default]
    Crossfade,
    /// Only the target is sampled from the start; the backend decays the offset between the
    /// pose the layer had the frame before and the target's pose to zero over `Duration`
    /// (inertialization), continuous in value and velocity.
    Inertial,
}

impl TransitionBlend {
    /// Every mode, in file order.
    pub const ALL: [TransitionBlend; 2] = [TransitionBlend::Crossfade, TransitionBlend::Inertial];

    /// The name used in `.mres` files.
    pub fn as_str(self) -> &'static str {
        match self {
            TransitionBlend::Crossfade => "Crossfade",
            TransitionBlend::Inertial => "Inertial",
        }
    }
}

/// Where the target of a transition starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TransitionSync {
    /// At `Offset`.
    #[default]
    None,
    /// At the phase matching the source's last passed marker (same marker name, same fraction
    /// of the way to the next marker); at `Offset` when either side has no markers.
    Markers,
}

impl TransitionSync {
    /// Every mode, in file order.
    pub const ALL: [TransitionSync; 2] = [TransitionSync::None, TransitionSync::Markers];

    /// The name used in `.mres` files.
    pub fn as_str(self) -> &'static str {
        match self {
            TransitionSync::None => "None",
            TransitionSync::Markers => "Markers",
        }
    }
}

/// `From` value meaning "any state of this machine".
pub const ANY_STATE: &str = "*";
/// `To` value meaning "leave this sub-machine through the parent's transitions".
pub const EXIT_STATE: &str = "<exit>";

/// A rule for moving from one state to another.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphTransition {
    /// Source state name, or `"*"` for any state (never into itself).
    pub from: String,
    /// Target state name, or `"<exit>"` inside a sub-machine.
    pub to: String,
    /// All must hold (AND); several transitions between the same states act as OR.
    pub conditions: Vec<GraphCondition>,
    /// Crossfade seconds; `-1` takes the graph's `Mixes` entry or `DefaultMix`; `0` is instant.
    pub duration: f32,
    /// Normalised source time after which the transition may start (cumulative: `2.0` = after
    /// the second loop); `-1` means any time.
    pub exit_time: f32,
    /// Normalised time at which the target starts.
    pub offset: f32,
    /// Which side's transitions may cut in while this one runs.
    pub interrupt: TransitionInterrupt,
    /// How the crossfade weight follows its progress.
    pub curve: TransitionCurve,
    /// Crossfade or inertial blend.
    pub blend: TransitionBlend,
    /// Where the target starts: at `Offset`, or matched to the source's markers.
    pub sync: TransitionSync,
    /// Higher is checked first; ties keep list order.
    pub priority: i32,
}

impl Default for GraphTransition {
    fn default() -> Self {
        use super::schema::transition as schema;
        GraphTransition {
            from: String::new(),
            to: String::new(),
            conditions: Vec::new(),
            duration: schema::DURATION.default,
            exit_time: schema::EXIT_TIME.default,
            offset: schema::OFFSET.default,
            interrupt: schema::INTERRUPT.default,
            curve: schema::CURVE.default,
            blend: schema::BLEND.default,
            sync: schema::SYNC.default,
            priority: schema::PRIORITY.default,
        }
    }
}

impl GraphTransition {
    /// A short human summary of the conditions and exit time: `speed > 2, exit 0.9`.
    pub fn summary(&self) -> String {
        let mut parts: Vec<String> = self.conditions.iter().map(|c| c.summary()).collect();
        if self.exit_time >= 0.0 {
            parts.push(format!("exit {}", self.exit_time));
        }
        parts.join(", ")
    }
}
