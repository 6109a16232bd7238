//! One animated character of either kind: a graph player driving a 2D or 3D skeleton, updated
//! and drawn with the same calls. The editor's preview and the example game use it.

use glam::{Vec2, Vec3};

use animgraph_2d::{Skeleton2DPoseBackend, render as render2d};
use animgraph_3d::{Skeleton3DPoseBackend, render as render3d};
use animgraph_runtime::animated::Animated;
use animgraph_runtime::graph::BindError;
use animgraph_runtime::{AnimationGraph, AnimationGraphPlayer, SampleBuffer};

use crate::Character;

// Both variants are large (a pose and a player); instances are long-lived and few per
// character, so the 300-byte difference does not matter and boxing would only add a hop.
#[allow(clippy::large_enum_variant)]
enum Animation {
    TwoD(Animated<Skeleton2DPoseBackend>),
    ThreeD(Animated<Skeleton3DPoseBackend>),
}

/// How to draw a character.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
    /// Drawing scale before downsampling (1 is fastest, 2 smooths edges).
    pub supersample: u32,
    /// 1 frames the setup pose with room around it; larger is closer.
    pub zoom: f32,
    /// 3D: turn around the vertical, radians (0 looks from the front).
    pub yaw: f32,
    /// 3D: look down from above, radians.
    pub pitch: f32,
    /// Draw bones over the picture.
    pub bones: bool,
}

impl Default for View {
    fn default() -> Self {
        View { width: 400, height: 400, supersample: 1, zoom: 1.0, yaw: 0.42, pitch: 0.2, bones: false }
    }
}

/// Working storage [`CharacterInstance::triangles`] keeps between frames.
#[derive(Clone, Debug, Default)]
pub struct TriangleScratch(render3d::TriangleScratch);

/// A character with a graph player.
pub struct CharacterInstance {
    character: Character,
    animation: Animation,
    /// What the setup pose covers: 2D bounds, 3D centre and radius.
    bounds_2d: (Vec2, Vec2),
    sphere_3d: (Vec3, f32),
}

impl CharacterInstance {
    /// Binds `graph` to a new pose of `character`.
    pub fn new(character: &Character, graph: &AnimationGraph) -> Result<CharacterInstance, BindError> {
        let (animation, bounds_2d, sphere_3d) = match character {
            Character::TwoD(skeleton, _) => {
                let bounds = render2d::pose_bounds(skeleton, &skeleton.setup);
                let backend = Skeleton2DPoseBackend::new(std::sync::Arc::clone(skeleton));
                (Animation::TwoD(Animated::new(backend, Some(graph), 0)?), bounds, (Vec3::ZERO, 1.0))
            }
            Character::ThreeD(skeleton) => {
                let backend = Skeleton3DPoseBackend::new(std::sync::Arc::clone(skeleton));
                let sphere = render3d::pose_sphere(skeleton, &backend.pose);
                (Animation::ThreeD(Animated::new(backend, Some(graph), 0)?), (Vec2::ZERO, Vec2::ONE), sphere)
            }
        };
        Ok(CharacterInstance { character: character.clone(), animation, bounds_2d, sphere_3d })
    }

    /// Another character in its initial state sharing the bound graph and skeleton (crowds).
    pub fn instantiate(&self) -> CharacterInstance {
        let animation = match &self.animation {
            Animation::TwoD(a) => Animation::TwoD(a.instantiate()),
            Animation::ThreeD(a) => Animation::ThreeD(a.instantiate()),
        };
        CharacterInstance { character: self.character.clone(), animation, ..*self }
    }

    /// Binds a new version of the graph, keeping each layer's state where it still exists.
    pub fn rebind(&mut self, graph: &AnimationGraph) -> Result<(), BindError> {
        match &mut self.animation {
            Animation::TwoD(a) => a.rebind(graph),
            Animation::ThreeD(a) => a.rebind(graph),
        }
    }

    /// The character.
    pub fn character(&self) -> &Character {
        &self.character
    }

    /// The graph player.
    pub fn player(&self) -> &AnimationGraphPlayer {
        match &self.animation {
            Animation::TwoD(a) => a.player(),
            Animation::ThreeD(a) => a.player(),
        }
        .expect("a character instance always has a graph")
    }

    /// The graph player, to set parameters.
    pub fn player_mut(&mut self) -> &mut AnimationGraphPlayer {
        match &mut self.animation {
            Animation::TwoD(a) => a.player_mut(),
            Animation::ThreeD(a) => a.player_mut(),
        }
        .expect("a character instance always has a graph")
    }

    /// One frame: advance the graph by `dt` seconds and pose the skeleton.
    pub fn update(&mut self, dt: f32) {
        match &mut self.animation {
            Animation::TwoD(a) => a.update(dt),
            Animation::ThreeD(a) => a.update(dt),
        }
    }

    /// The samples of the last update.
    pub fn buffer(&self) -> &SampleBuffer {
        match &self.animation {
            Animation::TwoD(a) => a.buffer(),
            Animation::ThreeD(a) => a.buffer(),
        }
    }

    /// The backend's names for its clips and masks (to name samples, e.g. for
    /// [`LinkServer::publish_posed`](animgraph_runtime::link::LinkServer::publish_posed)).
    pub fn names(&self) -> &dyn animgraph_runtime::BackendNames {
        match &self.animation {
            Animation::TwoD(a) => &a.backend,
            Animation::ThreeD(a) => &a.backend,
        }
    }

    /// Poses the skeleton from a frame another copy of this character emitted (an attached game's
    /// streamed samples); clips unknown here are skipped. Frames are applied in the order they
    /// come, so inertial blends continue from the previous one.
    pub fn pose_frame(&mut self, frame: &animgraph_runtime::recording::RecordedFrame) {
        let mut scratch = Vec::new();
        match &mut self.animation {
            Animation::TwoD(a) => frame.pose(&mut a.backend, &mut scratch),
            Animation::ThreeD(a) => frame.pose(&mut a.backend, &mut scratch),
        }
    }

    /// The last update as a recorded frame (layers, parameters, explanation, named samples).
    pub fn record(&self, time: f32) -> animgraph_runtime::recording::RecordedFrame {
        match &self.animation {
            Animation::TwoD(a) => animgraph_runtime::recording::RecordedFrame::capture(
                self.player(),
                a.buffer(),
                &a.backend,
                time,
            ),
            Animation::ThreeD(a) => animgraph_runtime::recording::RecordedFrame::capture(
                self.player(),
                a.buffer(),
                &a.backend,
                time,
            ),
        }
    }

    /// Poses the skeleton as frame `index` of a recording did (scrubbing; `frame(i)` gives frame
    /// `i`), replaying from before an inertial blend that was running then (see
    /// [`pose_at`](animgraph_runtime::recording::pose_at)); the next [`update`](Self::update)
    /// poses it from the player again.
    pub fn pose_recorded<'a>(
        &mut self,
        frame: impl Fn(usize) -> Option<&'a animgraph_runtime::recording::RecordedFrame>,
        index: usize,
    ) {
        match &mut self.animation {
            Animation::TwoD(a) => animgraph_runtime::recording::pose_at(frame, index, &mut a.backend),
            Animation::ThreeD(a) => animgraph_runtime::recording::pose_at(frame, index, &mut a.backend),
        }
    }

    /// The local pose as `(bone, values)` (2D: 7 values, 3D: 10), as `simulate --poses` prints.
    pub fn local_pose(&self) -> Vec<(String, Vec<f32>)> {
        match &self.animation {
            Animation::TwoD(a) => a.backend.local_pose().into_iter().map(|(n, v)| (n, v.to_vec())).collect(),
            Animation::ThreeD(a) => {
                a.backend.local_pose().into_iter().map(|(n, v)| (n, v.to_vec())).collect()
            }
        }
    }

    /// The names of the clip events (footsteps, ...) the last update fired; 3D clips have none.
    pub fn clip_events(&self) -> Vec<String> {
        match &self.animation {
            Animation::TwoD(a) => {
                let names = &a.backend.skeleton().data.events;
                a.backend.events().iter().filter_map(|e| names.get(e.event as usize).cloned()).collect()
            }
            Animation::ThreeD(_) => Vec::new(),
        }
    }

    /// The current pose as triangles for a GPU, framed as [`render`](Self::render) frames it in
    /// a `view.width` x `view.height` view (any units: the editor uses points). Runs name
    /// [`Character::pages`]. `scratch` keeps 3D working storage between frames.
    pub fn triangles(&self, view: &View, scratch: &mut TriangleScratch, out: &mut animgraph_draw::Triangles) {
        let (width, height) = (view.width.max(1), view.height.max(1));
        match (&self.animation, &self.character) {
            (Animation::TwoD(a), Character::TwoD(skeleton, texture)) => {
                let camera = self.camera_2d(view, width, height);
                render2d::triangles(skeleton, &a.backend.pose, texture, &camera, view.bones, out);
            }
            (Animation::ThreeD(a), Character::ThreeD(skeleton)) => {
                let camera = self.camera_3d(view, width, height);
                let size = (width as f32, height as f32);
                render3d::triangles(
                    skeleton,
                    &a.backend.pose,
                    &camera,
                    size,
                    view.bones,
                    &mut scratch.0,
                    out,
                );
            }
            _ => unreachable!("an instance's animation always matches its character"),
        }
    }

    fn camera_2d(&self, view: &View, width: u32, height: u32) -> render2d::Camera {
        let (min, max) = self.bounds_2d;
        let centre = (min + max) * 0.5;
        let half = (max - min) * 0.6 / view.zoom.max(0.05);
        render2d::Camera::fit(centre - half, centre + half, width, height, 0.02)
    }

    fn camera_3d(&self, view: &View, width: u32, height: u32) -> render3d::Camera3D {
        let (centre, radius) = self.sphere_3d;
        render3d::orbit_camera(centre, radius, view.yaw, view.pitch, 4.2 / view.zoom.max(0.05), width, height)
    }

    /// Draws the current pose.
    pub fn render(&self, view: &View) -> tiny_skia::Pixmap {
        let (width, height) = (view.width.max(1), view.height.max(1));
        match (&self.animation, &self.character) {
            (Animation::TwoD(a), Character::TwoD(skeleton, texture)) => {
                let camera = self.camera_2d(view, width, height);
                let options = render2d::RenderOptions {
                    width,
                    height,
                    supersample: view.supersample.max(1),
                    bones: view.bones,
                    ..Default::default()
                };
                render2d::render(skeleton, &a.backend.pose, texture, &camera, &options)
            }
            (Animation::ThreeD(a), Character::ThreeD(skeleton)) => {
                let camera = self.camera_3d(view, width, height);
                let options = render3d::RenderOptions3D {
                    width,
                    height,
                    supersample: view.supersample.max(1),
                    joints: view.bones,
                    ..Default::default()
                };
                render3d::render(skeleton, &a.backend.pose, &camera, &options)
            }
            _ => unreachable!("an instance's animation always matches its character"),
        }
    }
}
