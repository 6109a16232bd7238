//! Fixtures: graphs, characters and the inputs that keep them busy.

use std::path::PathBuf;
use std::sync::Arc;

use animgraph_2d::{AnimatedSkeleton2D, Skeleton2D, Skeleton2DData};
use animgraph_3d::AnimatedSkeleton3D;
use animgraph_runtime::graph::{
    ClipState, ConditionOp, GraphCondition, GraphLayer, GraphMachine, GraphParameter, GraphState,
    GraphTransition, ParamId, ParameterType, StateKind,
};
use animgraph_runtime::script::RecordingBackend;
use animgraph_runtime::{AnimationGraph, AnimationGraphPlayer, SampleBuffer, mres};

/// A path under the repository's `assets/`.
pub fn asset(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets").join(relative)
}

/// A bundled graph.
pub fn graph(relative: &str) -> AnimationGraph {
    let path = asset(relative);
    mres::load_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).graph.into_graph()
}

/// A backend with every clip the graph names, `0.5 + 0.07 i` seconds long, looping.
pub fn backend_for(graph: &AnimationGraph) -> RecordingBackend {
    let names = graph.clip_names();
    let clips: Vec<(&str, f32, bool)> =
        names.iter().enumerate().map(|(i, n)| (n.as_str(), 0.5 + i as f32 * 0.07, true)).collect();
    RecordingBackend::with_clips(&clips)
}

/// A generated graph: `states` clip states in a grid of 25 columns, each with transitions to its
/// right and lower neighbours on a `speed` condition and an exit time (what a big editor graph
/// and a big bind look like).
pub fn big_graph(states: usize) -> AnimationGraph {
    let clips: Vec<String> = (0..7).map(|i| format!("clip{i}")).collect();
    big_graph_of(states, &clips)
}

/// [`big_graph`] playing `clips` (state `i` plays `clips[i % len]`), for a real skeleton.
pub fn big_graph_of(states: usize, clips: &[String]) -> AnimationGraph {
    let columns = 25;
    let mut machine = GraphMachine::default();
    for i in 0..states {
        let mut s = GraphState::new(
            format!("S{i}"),
            StateKind::Clip(ClipState { clip: clips[i % clips.len()].clone(), looping: true }),
        );
        s.editor_position = [(i % columns) as f32 * 200.0, (i / columns) as f32 * 110.0];
        machine.states.push(s);
    }
    for i in 0..states {
        for j in [i + 1, i + columns] {
            if j < states && (j != i + 1 || (i + 1) % columns != 0) {
                machine.transitions.push(GraphTransition {
                    from: format!("S{i}"),
                    to: format!("S{j}"),
                    conditions: vec![GraphCondition {
                        parameter: "speed".into(),
                        op: ConditionOp::Greater,
                        value: (i % 5) as f32,
                    }],
                    exit_time: 0.9,
                    ..Default::default()
                });
            }
        }
    }
    machine.entry = "S0".into();
    AnimationGraph {
        uid: "res_big".into(),
        parameters: vec![GraphParameter {
            name: "speed".into(),
            kind: ParameterType::Float,
            default: 0.0,
            latch: false,
        }],
        layers: vec![GraphLayer { machine, ..Default::default() }],
        ..Default::default()
    }
}

/// A player with the inputs that keep it busy: numeric parameters sweeping, triggers firing.
pub struct Busy {
    /// The player.
    pub player: AnimationGraphPlayer,
    /// Its buffer.
    pub buffer: SampleBuffer,
    floats: Vec<(ParamId, f32)>,
    ints: Vec<ParamId>,
    triggers: Vec<ParamId>,
    frame: u32,
}

impl Busy {
    /// Binds `graph` to a recording backend and finds its parameters by type.
    pub fn new(graph: &AnimationGraph) -> Busy {
        let mut backend = backend_for(graph);
        Busy::with_player(AnimationGraphPlayer::bind(graph, &mut backend).expect("bundled graphs bind"))
    }

    /// Drives an existing player.
    pub fn with_player(player: AnimationGraphPlayer) -> Busy {
        let (mut floats, mut ints, mut triggers) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..player.parameter_count() {
            let id = ParamId(i as u16);
            match player.parameter_type(id) {
                Some(ParameterType::Float) => floats.push((id, 0.3 + i as f32 * 0.11)),
                Some(ParameterType::Int) => ints.push(id),
                Some(ParameterType::Trigger) => triggers.push(id),
                _ => {}
            }
        }
        let buffer = player.new_buffer();
        Busy { player, buffer, floats, ints, triggers, frame: 0 }
    }

    /// Sets this frame's inputs on `player` (the same sweep for every graph).
    pub fn drive(&mut self) {
        drive(&mut self.player, &self.floats, &self.ints, &self.triggers, self.frame);
        self.frame = self.frame.wrapping_add(1);
    }

    /// One frame: inputs, then `advance`.
    pub fn step(&mut self) {
        self.drive();
        self.player.advance(1.0 / 60.0, &mut self.buffer);
    }
}

fn drive(
    player: &mut AnimationGraphPlayer,
    floats: &[(ParamId, f32)],
    ints: &[ParamId],
    triggers: &[ParamId],
    frame: u32,
) {
    let t = frame as f32 / 60.0;
    for &(id, rate) in floats {
        let _ = player.set_float(id, 1.6 + 1.6 * (t * rate).sin());
    }
    for &id in ints {
        let _ = player.set_int(id, ((frame / 300) % 3) as i32);
    }
    for (k, &id) in triggers.iter().enumerate() {
        if (frame + k as u32 * 53) % 211 == 0 {
            let _ = player.fire(id);
        }
    }
}

/// GBot's skeleton.
pub fn gbot_skeleton() -> Arc<Skeleton2D> {
    Arc::new(Skeleton2D::new(Skeleton2DData::load(asset("characters/gbot/gbot.mskel")).unwrap()).unwrap())
}

/// A GBot driven by its graph.
pub fn gbot() -> AnimatedSkeleton2D {
    animgraph_2d::animated_2d(gbot_skeleton(), Some(&graph("characters/gbot/gbot.mres")), 0).unwrap()
}

/// A RobotExpressive driven by its graph.
pub fn robot() -> AnimatedSkeleton3D {
    robot_with(&graph("characters/robot/robot.mres"))
}

/// A RobotExpressive (with its markers) driven by `graph`.
pub fn robot_with(graph: &AnimationGraph) -> AnimatedSkeleton3D {
    let skeleton = Arc::new(
        animgraph_3d::import::import_file(asset("characters/robot/RobotExpressive.glb")).unwrap().skeleton,
    );
    animgraph_3d::animated_3d(skeleton, Some(graph), 0).unwrap()
}

/// The Robot's Walking -> Punch and back, both transitions with this blend (`Inertial` or
/// `Crossfade`), 0.3 s: a motion-quality scenario.
pub fn robot_two_states(blend: &str) -> AnimatedSkeleton3D {
    let text = animgraph_test_support::graphs::two_states("Walking", "Punch", blend, 0.3);
    robot_with(&animgraph_runtime::mres::load_str(&text).unwrap().graph)
}

/// The Robot's graph with its Move blend space's SyncMarkers on or off (SyncTime either way).
pub fn robot_markers(sync_markers: bool) -> AnimatedSkeleton3D {
    let mut g = graph("characters/robot/robot.mres");
    if let animgraph_runtime::graph::StateKind::BlendSpace1D(b) = &mut g.layers[0].machine.states[0].kind {
        b.sync_markers = sync_markers;
    }
    robot_with(&g)
}

/// A crowd of characters sharing one bound graph, each with its own phase of the inputs.
pub struct Crowd<B: animgraph_runtime::PoseBackend> {
    /// The characters.
    pub characters: Vec<animgraph_runtime::animated::Animated<B>>,
    floats: Vec<(ParamId, f32)>,
    ints: Vec<ParamId>,
    triggers: Vec<ParamId>,
    frame: u32,
}

impl<B: animgraph_runtime::PoseBackend + Clone + Send> Crowd<B> {
    /// `n` instances of `first`.
    pub fn new(first: &animgraph_runtime::animated::Animated<B>, n: usize) -> Crowd<B> {
        let inputs = Busy::with_player(AnimationGraphPlayer::new(
            first.player().expect("a graph").bound_graph().clone(),
        ));
        Crowd {
            characters: (0..n).map(|_| first.instantiate()).collect(),
            floats: inputs.floats,
            ints: inputs.ints,
            triggers: inputs.triggers,
            frame: 0,
        }
    }

    /// Sets every character's inputs for this frame (each a few frames apart).
    pub fn drive(&mut self) {
        for (i, c) in self.characters.iter_mut().enumerate() {
            if let Some(p) = c.player_mut() {
                drive(p, &self.floats, &self.ints, &self.triggers, self.frame.wrapping_add(i as u32 * 7));
            }
        }
        self.frame = self.frame.wrapping_add(1);
    }

    /// One frame on this thread.
    pub fn update_serial(&mut self) {
        self.drive();
        for c in &mut self.characters {
            c.update(1.0 / 60.0);
        }
    }

    /// One frame on the current rayon pool.
    pub fn update_parallel(&mut self) {
        self.drive();
        animgraph_runtime::animated::update_all(&mut self.characters, 1.0 / 60.0);
    }
}

/// A GBot player's replicated state after some busy frames (for encode/decode).
pub fn net_state() -> animgraph_runtime::net::NetState {
    let g = graph("characters/gbot/gbot.mres");
    let mut busy = Busy::new(&g);
    for _ in 0..137 {
        busy.step();
    }
    let mut state = animgraph_runtime::net::NetState::default();
    busy.player.capture_net(&mut state);
    state
}

/// A crowd store ([`animgraph_runtime::crowd::Crowd`]) of `n` characters, each with its own
/// phase of the inputs (the same inputs as [`Crowd`]).
pub struct StoreCrowd<B: animgraph_runtime::crowd::CrowdBackend> {
    /// The store.
    pub crowd: animgraph_runtime::crowd::Crowd<B>,
    floats: Vec<(ParamId, f32)>,
    ints: Vec<ParamId>,
    triggers: Vec<ParamId>,
    frame: u32,
}

impl<B: animgraph_runtime::crowd::CrowdBackend> StoreCrowd<B> {
    /// `n` characters of `graph` on (members of) `backend`.
    pub fn new(graph: &AnimationGraph, backend: B, n: usize) -> StoreCrowd<B> {
        let mut crowd = animgraph_runtime::crowd::Crowd::new(graph, backend).expect("bundled graphs bind");
        crowd.reserve(n);
        for _ in 0..n {
            crowd.spawn();
        }
        let inputs = Busy::with_player(AnimationGraphPlayer::new(crowd.bound_graph().clone()));
        StoreCrowd { crowd, floats: inputs.floats, ints: inputs.ints, triggers: inputs.triggers, frame: 0 }
    }

    /// Sets every character's inputs for this frame (each a few frames apart, as [`Crowd`]).
    pub fn drive(&mut self) {
        for (i, m) in self.crowd.members_mut().iter_mut().enumerate() {
            drive(
                &mut m.player,
                &self.floats,
                &self.ints,
                &self.triggers,
                self.frame.wrapping_add(i as u32 * 7),
            );
        }
        self.frame = self.frame.wrapping_add(1);
    }

    /// One frame on this thread.
    pub fn update_serial(&mut self) {
        self.drive();
        self.crowd.update(1.0 / 60.0);
    }

    /// One frame split over the current rayon pool's threads.
    pub fn update_parallel(&mut self) {
        self.drive();
        self.crowd.update_parallel(1.0 / 60.0);
    }
}

/// A crowd store of `n` GBots.
pub fn gbot_store(n: usize) -> StoreCrowd<animgraph_2d::Skeleton2DPoseBackend> {
    StoreCrowd::new(
        &graph("characters/gbot/gbot.mres"),
        animgraph_2d::Skeleton2DPoseBackend::new(gbot_skeleton()),
        n,
    )
}

/// A crowd store of `n` Robots.
pub fn robot_store(n: usize) -> StoreCrowd<animgraph_3d::Skeleton3DPoseBackend> {
    let skeleton = Arc::new(
        animgraph_3d::import::import_file(asset("characters/robot/RobotExpressive.glb")).unwrap().skeleton,
    );
    StoreCrowd::new(
        &graph("characters/robot/robot.mres"),
        animgraph_3d::Skeleton3DPoseBackend::new(skeleton),
        n,
    )
}
