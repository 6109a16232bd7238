//! What the 2D and 3D components share: a character that is waiting for its assets, playing,
//! or failed to bind, and the frame's update.

use animgraph_runtime::animated::Animated;
use animgraph_runtime::{AnimationGraphPlayer, PoseBackend};

/// A component's character: waiting for its assets, bound and playing, or refused by bind.
#[derive(Debug)]
pub(crate) enum Binding<B: PoseBackend> {
    /// Waiting for the assets (or, in 3D, for the scene to spawn).
    Waiting,
    /// Bound: the character plays.
    Playing(Box<Animated<B>>),
    /// The graph does not bind (logged once); a new graph version (hot reload) tries again.
    Failed,
}

impl<B: PoseBackend> Binding<B> {
    pub(crate) fn character(&self) -> Option<&Animated<B>> {
        match self {
            Binding::Playing(c) => Some(c),
            _ => None,
        }
    }

    pub(crate) fn character_mut(&mut self) -> Option<&mut Animated<B>> {
        match self {
            Binding::Playing(c) => Some(c),
            _ => None,
        }
    }

    pub(crate) fn player_mut(&mut self) -> Option<&mut AnimationGraphPlayer> {
        self.character_mut().and_then(Animated::player_mut)
    }

    /// One frame of a bound character (nothing otherwise); allocates nothing.
    pub(crate) fn update(&mut self, dt: f32) {
        if let Binding::Playing(c) = self {
            c.update(dt);
        }
    }
}

/// Accessors shared by [`AnimGraph2D`](crate::AnimGraph2D) and
/// [`AnimGraph3D`](crate::AnimGraph3D).
macro_rules! character_accessors {
    ($backend:ty) => {
        /// The character (graph player, code tracks, backend and pose), once bound.
        pub fn character(&self) -> Option<&animgraph_runtime::animated::Animated<$backend>> {
            self.binding.character()
        }

        /// The character, to play code tracks (`character_mut()?.tracks`) or reach the backend.
        pub fn character_mut(&mut self) -> Option<&mut animgraph_runtime::animated::Animated<$backend>> {
            self.binding.character_mut()
        }

        /// The graph player, once bound: parameters, `travel`, layer weights, states. Resolve
        /// ids once with `find_parameter` / `find_layer` and set by id each frame (no string
        /// lookup), or set by name (`set_float_by_name`).
        pub fn player(&self) -> Option<&animgraph_runtime::AnimationGraphPlayer> {
            self.binding.character().and_then(|c| c.player())
        }

        /// The graph player, to set parameters and layer weights or `travel`.
        pub fn player_mut(&mut self) -> Option<&mut animgraph_runtime::AnimationGraphPlayer> {
            self.binding.player_mut()
        }

        /// Whether the graph did not bind (the error was logged); a changed graph asset tries
        /// again.
        pub fn failed(&self) -> bool {
            matches!(self.binding, $crate::character::Binding::Failed)
        }
    };
}
pub(crate) use character_accessors;
