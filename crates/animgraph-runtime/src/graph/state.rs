//! A state: what a layer plays while it is there (a clip, a blend space or a nested machine).

use super::GraphMachine;

/// A state of a machine: common fields plus what kind of state it is.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphState {
    /// Unique within its machine.
    pub name: String,
    /// Playback rate multiplier. Default `1`; negative plays backwards.
    pub speed: f32,
    /// Optional numeric parameter multiplied with `speed`.
    pub speed_parameter: String,
    /// Where the editor draws the state.
    pub editor_position: [f32; 2],
    /// Clip, 1D or 2D blend space, or sub-machine.
    pub kind: StateKind,
    /// Named spans of normalised time (hit windows, combo windows) the player signals with
    /// `WindowBegin` / `WindowEnd`. Clip and blend-space states only.
    pub windows: Vec<GraphWindow>,
}

/// A named span of a state's normalised time, `[start, end)`, within each loop for looping
/// states. While the state is its layer's current state (or the running mix's target: not a
/// fading-out source) and its time lies in the span, the window is open; the player raises
/// `WindowBegin` when it opens and exactly one `WindowEnd` when it closes (the time leaves the
/// span, a transition away from the state starts, or the player is rebound or restored).
#[derive(Clone, Debug, PartialEq)]
pub struct GraphWindow {
    /// Unique within its state.
    pub name: String,
    /// Normalised time the window opens at. Default `0`.
    pub start: f32,
    /// Normalised time it closes at (not included). Default `1`.
    pub end: f32,
}

impl Default for GraphWindow {
    fn default() -> Self {
        use super::schema::window as schema;
        GraphWindow { name: String::new(), start: schema::START.default, end: schema::END.default }
    }
}

impl GraphState {
    /// A state with the proposal's defaults and this name and kind.
    pub fn new(name: impl Into<String>, kind: StateKind) -> Self {
        GraphState {
            name: name.into(),
            speed: 1.0,
            speed_parameter: String::new(),
            editor_position: [0.0, 0.0],
            kind,
            windows: Vec::new(),
        }
    }

    /// The name `Mixes` entries match this state by: its clip for a clip state, else its name.
    pub fn mix_name(&self) -> &str {
        match &self.kind {
            StateKind::Clip(c) => c.clip.as_str(),
            _ => self.name.as_str(),
        }
    }
}

/// The four kinds of state.
#[derive(Clone, Debug, PartialEq)]
pub enum StateKind {
    /// Plays one clip.
    Clip(ClipState),
    /// Blends clips placed on a line by one parameter.
    BlendSpace1D(BlendSpace1D),
    /// Blends clips placed on a plane by two parameters.
    BlendSpace2D(BlendSpace2D),
    /// A nested state machine.
    SubMachine(GraphMachine),
}

impl StateKind {
    /// The `.mres` resource type name.
    pub fn type_name(&self) -> &'static str {
        match self {
            StateKind::Clip(_) => "ClipState",
            StateKind::BlendSpace1D(_) => "BlendSpace1DState",
            StateKind::BlendSpace2D(_) => "BlendSpace2DState",
            StateKind::SubMachine(_) => "SubMachineState",
        }
    }
}

/// A state that plays one clip.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipState {
    /// The clip's name, resolved by the backend.
    pub clip: String,
    /// Whether the clip loops; a non-looping clip holds its last frame. Default `true`.
    pub looping: bool,
}

impl Default for ClipState {
    fn default() -> Self {
        ClipState { clip: String::new(), looping: super::schema::clip_state::LOOP.default }
    }
}

/// Clips on a line, blended by one parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct BlendSpace1D {
    /// The numeric parameter that places the blend point.
    pub parameter: String,
    /// Clip names, one per position.
    pub clips: Vec<String>,
    /// Positions, strictly ascending.
    pub positions: Vec<f32>,
    /// Advance clips in normalised time so their phases match. Default `true`.
    pub sync_time: bool,
    /// Keep the clips' markers aligned (a walk and a run plant the same foot together).
    /// Default `false`.
    pub sync_markers: bool,
}

impl Default for BlendSpace1D {
    fn default() -> Self {
        BlendSpace1D {
            parameter: String::new(),
            clips: Vec::new(),
            positions: Vec::new(),
            sync_time: super::schema::blend_1d::SYNC_TIME.default,
            sync_markers: super::schema::blend_1d::SYNC_MARKERS.default,
        }
    }
}

/// Clips on a plane, blended by two parameters through a triangulation.
#[derive(Clone, Debug, PartialEq)]
pub struct BlendSpace2D {
    /// The numeric parameter for x.
    pub parameter_x: String,
    /// The numeric parameter for y.
    pub parameter_y: String,
    /// Clip names, one per position.
    pub clips: Vec<String>,
    /// Positions, no two equal.
    pub positions: Vec<[f32; 2]>,
    /// Advance clips in normalised time so their phases match. Default `true`.
    pub sync_time: bool,
    /// Keep the clips' markers aligned. Default `false`.
    pub sync_markers: bool,
}

impl Default for BlendSpace2D {
    fn default() -> Self {
        BlendSpace2D {
            parameter_x: String::new(),
            parameter_y: String::new(),
            clips: Vec::new(),
            positions: Vec::new(),
            sync_time: super::schema::blend_2d::SYNC_TIME.default,
            sync_markers: super::schema::blend_2d::SYNC_MARKERS.default,
        }
    }
}
