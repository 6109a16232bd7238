//! [`AnimGraph3D`]: a graph posing a glTF scene instance.
//!
//! Put the component on the entity that spawns the scene (Bevy's glTF scene root). Once the
//! graph and the [`ModelAsset`] have loaded and the scene's nodes exist, each joint of the model
//! is mapped once to its entity by name path (its name, and under its parent joint's entity when
//! the name repeats), and gets an [`AnimGraphJoint`]; each mesh node with morph targets gets an
//! [`AnimGraphMorphs`]. Every frame the character advances in `Update` (entities in parallel),
//! and in `PostUpdate`, after Bevy's `AnimationSystems` and before transform propagation, the
//! joints' `Transform`s and the `MorphWeights` are written from the pose (in parallel over the
//! joints). Writing after Bevy's animation systems means an `AnimationPlayer` the glTF scene
//! carries cannot fight the graph: whatever it wrote is replaced before propagation.

use std::collections::HashMap;
use std::sync::Arc;

use animgraph_3d::{Retarget, Skeleton3D, Skeleton3DPoseBackend};
use bevy::asset::{Assets, Handle};
use bevy::ecs::name::Name;
use bevy::ecs::prelude::*;
use bevy::math::{Quat, Vec3};
use bevy::mesh::morph::MorphWeights;
use bevy::time::Time;
use bevy::transform::components::Transform;

use crate::character::{Binding, character_accessors};
use crate::{GraphAsset, ModelAsset};

/// A 3D character: a graph posing the glTF scene spawned under this entity, from the clips of
/// `model` (the same glTF, read by animgraph's importer) and of any clip `libraries`.
#[derive(Component, Debug)]
pub struct AnimGraph3D {
    /// The graph to play.
    pub graph: Handle<GraphAsset>,
    /// The model whose skeleton and clips pose the scene (load it from the scene's file).
    pub model: Handle<ModelAsset>,
    /// Clip libraries (glTF files of clips for the same rig), added to the model's clips.
    pub libraries: Vec<(Handle<ModelAsset>, Retarget)>,
    /// How many code tracks play above the graph (0 by default).
    pub tracks: usize,
    pub(crate) binding: Binding<Skeleton3DPoseBackend>,
    /// The missing joints were reported (once).
    reported: bool,
    /// The entity of joint 0 once the scene is mapped (checked each frame: a respawned scene
    /// is mapped again).
    first_joint: Option<Entity>,
}

/// A joint entity of a scene posed by an [`AnimGraph3D`]: the character's entity and the joint's
/// index in its skeleton. Added by the plugin when it maps the scene; its `Transform` is written
/// each frame.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnimGraphJoint {
    /// The entity holding the [`AnimGraph3D`].
    pub character: Entity,
    /// The joint's index in the model's skeleton.
    pub joint: u16,
}

/// A mesh node whose `MorphWeights` an [`AnimGraph3D`] writes: its weights are the pose's
/// `morph_weights[first..first + count]`.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnimGraphMorphs {
    /// The entity holding the [`AnimGraph3D`].
    pub character: Entity,
    /// The group's first weight in the pose.
    pub first: u32,
    /// How many weights.
    pub count: u32,
}

impl AnimGraph3D {
    /// A character of `graph` posing the scene under this entity from `model`'s clips.
    pub fn new(graph: Handle<GraphAsset>, model: Handle<ModelAsset>) -> Self {
        AnimGraph3D {
            graph,
            model,
            libraries: Vec::new(),
            tracks: 0,
            binding: Binding::Waiting,
            reported: false,
            first_joint: None,
        }
    }

    /// With the clips of a library (another glTF of the same rig) added to the model's.
    pub fn with_library(mut self, library: Handle<ModelAsset>, retarget: Retarget) -> Self {
        self.libraries.push((library, retarget));
        self
    }

    /// With `count` code tracks above the graph (one-off clips played from game code).
    pub fn with_tracks(mut self, count: usize) -> Self {
        self.tracks = count;
        self
    }

    character_accessors!(Skeleton3DPoseBackend);
}

/// The model's skeleton with its libraries' clips, or `None` while one is loading.
fn skeleton_with_libraries(
    c: &AnimGraph3D,
    models: &Assets<ModelAsset>,
) -> Option<Result<Arc<Skeleton3D>, String>> {
    let model = models.get(&c.model)?;
    if c.libraries.is_empty() {
        return Some(Ok(Arc::clone(&model.skeleton)));
    }
    let mut skeleton = (*model.skeleton).clone();
    for (library, retarget) in &c.libraries {
        let lib = models.get(library)?;
        let source = library.path().map_or_else(|| "a clip library".to_string(), ToString::to_string);
        if let Err(e) = skeleton.add_library(&lib.skeleton, *retarget, &source) {
            return Some(Err(e));
        }
    }
    Some(Ok(Arc::new(skeleton)))
}

/// Binds characters whose graph and model have loaded and whose scene has spawned, mapping the
/// scene's joints to their entities. A scene that is spawned again (Bevy respawns an instance
/// when its asset changes) is mapped again, and the character plays on.
#[allow(clippy::too_many_arguments)]
pub(crate) fn bind_3d(
    mut commands: Commands,
    mut characters: Query<(Entity, &mut AnimGraph3D)>,
    graphs: Res<Assets<GraphAsset>>,
    models: Res<Assets<ModelAsset>>,
    children: Query<&Children>,
    names: Query<&Name>,
    morphs: Query<(), With<MorphWeights>>,
    mapped: Query<&AnimGraphJoint>,
) {
    for (entity, mut c) in &mut characters {
        let skeleton = match &c.binding {
            Binding::Failed => continue,
            Binding::Playing(character) => {
                // Still mapped: its first joint's entity names it.
                if c.first_joint.and_then(|e| mapped.get(e).ok()).is_some_and(|j| j.character == entity) {
                    continue;
                }
                Arc::clone(character.backend.skeleton())
            }
            Binding::Waiting => {
                if !graphs.contains(&c.graph) {
                    continue;
                }
                match skeleton_with_libraries(&c, &models) {
                    None => continue,
                    Some(Ok(s)) => s,
                    Some(Err(e)) => {
                        bevy::log::error!("{entity}: {e}");
                        c.binding = Binding::Failed;
                        continue;
                    }
                }
            }
        };
        let scene = Scene::of(entity, &children, &names);
        if scene.nodes.is_empty() {
            continue; // The scene has not spawned yet.
        }
        let joints = match scene.map_joints(&skeleton) {
            Ok(joints) => joints,
            Err(missing) => {
                if !c.reported {
                    c.reported = true;
                    bevy::log::warn!(
                        "{entity}: waiting for {} of the model's joints under this entity (first: \"{}\"); is the scene of the same glTF spawned here?",
                        missing.len(),
                        missing[0]
                    );
                }
                continue;
            }
        };
        if matches!(c.binding, Binding::Waiting) {
            let Some(graph) = graphs.get(&c.graph) else { continue };
            match animgraph_3d::animated_3d(Arc::clone(&skeleton), Some(&graph.graph), c.tracks) {
                Ok(mut character) => {
                    // Bevy propagates the joints' Transforms itself: no world matrices here.
                    character.backend.set_world_matrices(false);
                    c.binding = Binding::Playing(Box::new(character));
                }
                Err(e) => {
                    bevy::log::error!("{entity}: the graph does not bind to the model: {e}");
                    c.binding = Binding::Failed;
                    continue;
                }
            }
        }
        c.first_joint = joints.first().copied();
        for (joint, e) in joints.into_iter().enumerate() {
            commands.entity(e).insert(AnimGraphJoint { character: entity, joint: joint as u16 });
        }
        for group in &skeleton.morph_groups {
            let found = scene.named(&group.node_name).find(|&e| morphs.contains(e));
            match found {
                Some(e) => {
                    commands.entity(e).insert(AnimGraphMorphs {
                        character: entity,
                        first: group.first as u32,
                        count: group.default_weights.len() as u32,
                    });
                }
                None => bevy::log::warn!(
                    "{entity}: no entity named \"{}\" with MorphWeights in the scene; its morph weights are not shown (is Bevy's `morph` feature on?)",
                    group.node_name
                ),
            }
        }
    }
}

/// The named descendants of a character's entity, in depth-first order.
struct Scene<'a> {
    /// (entity, index of the nearest named ancestor in `nodes`, name).
    nodes: Vec<(Entity, Option<usize>, &'a str)>,
    by_name: HashMap<&'a str, Vec<usize>>,
}

impl<'a> Scene<'a> {
    fn of(root: Entity, children: &Query<&Children>, names: &'a Query<&Name>) -> Scene<'a> {
        let mut nodes = Vec::new();
        let mut stack: Vec<(Entity, Option<usize>)> =
            children.get(root).map(|c| c.iter().rev().map(|e| (e, None)).collect()).unwrap_or_default();
        while let Some((e, parent)) = stack.pop() {
            let here = match names.get(e) {
                Ok(name) => {
                    nodes.push((e, parent, name.as_str()));
                    Some(nodes.len() - 1)
                }
                Err(_) => parent,
            };
            if let Ok(c) = children.get(e) {
                stack.extend(c.iter().rev().map(|c| (c, here)));
            }
        }
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, (_, _, name)) in nodes.iter().enumerate() {
            by_name.entry(name).or_default().push(i);
        }
        Scene { nodes, by_name }
    }

    fn named<'s>(&'s self, name: &str) -> impl Iterator<Item = Entity> + 's {
        self.by_name.get(name).into_iter().flatten().map(|&i| self.nodes[i].0)
    }

    /// Whether node `i` lies under node `ancestor`.
    fn under(&self, mut i: usize, ancestor: usize) -> bool {
        while let Some(p) = self.nodes[i].1 {
            if p == ancestor {
                return true;
            }
            i = p;
        }
        false
    }

    /// Each joint's entity: the node of its name (the importer's `node_N` for an unnamed node is
    /// Bevy's `GltfNodeN`); when the name repeats, the one under its parent joint's node. Joints
    /// come parents first, so a parent is mapped before its children. Errs with the joints not
    /// found.
    fn map_joints(&self, skeleton: &Skeleton3D) -> Result<Vec<Entity>, Vec<String>> {
        let mut mapped: Vec<usize> = Vec::with_capacity(skeleton.bone_count());
        let mut missing = Vec::new();
        for (j, name) in skeleton.names.iter().enumerate() {
            let bevy_name = name.strip_prefix("node_").map(|n| format!("GltfNode{n}"));
            let candidates = self
                .by_name
                .get(name.as_str())
                .or_else(|| bevy_name.as_deref().and_then(|n| self.by_name.get(n)));
            let parent = skeleton.parents[j].and_then(|p| mapped.get(p as usize).copied());
            let found = candidates.and_then(|c| match c.as_slice() {
                [one] => Some(*one),
                many => many.iter().copied().find(|&i| parent.is_none_or(|p| self.under(i, p))),
            });
            match found {
                Some(i) if missing.is_empty() => mapped.push(i),
                Some(_) => {}
                None => missing.push(name.clone()),
            }
        }
        if missing.is_empty() {
            Ok(mapped.into_iter().map(|i| self.nodes[i].0).collect())
        } else {
            Err(missing)
        }
    }
}

/// Advances every bound 3D character by the frame's delta, in parallel.
pub(crate) fn advance_3d(time: Res<Time>, mut characters: Query<&mut AnimGraph3D>) {
    let dt = time.delta_secs();
    characters.par_iter_mut().for_each(|mut c| c.binding.update(dt));
}

/// Writes each mapped joint's local transform from its character's pose, joints in parallel.
pub(crate) fn write_joints(
    characters: Query<&AnimGraph3D>,
    mut joints: Query<(&AnimGraphJoint, &mut Transform)>,
) {
    joints.par_iter_mut().for_each(|(joint, mut transform)| {
        let Some(pose) =
            characters.get(joint.character).ok().and_then(|c| c.character()).map(|c| &c.backend.pose)
        else {
            return;
        };
        let j = joint.joint as usize;
        let (Some(&translation), Some(&rotation), Some(&scale)) =
            (pose.translations.get(j), pose.rotations.get(j), pose.scales.get(j))
        else {
            return;
        };
        // Through arrays: the runtime's glam and Bevy's may be different versions.
        let next = Transform {
            translation: Vec3::from_array(translation.to_array()),
            rotation: Quat::from_array(rotation.to_array()),
            scale: Vec3::from_array(scale.to_array()),
        };
        // Only a changed transform is marked changed, so still joints cost propagation nothing.
        transform.set_if_neq(next);
    });
}

/// Writes each mapped mesh node's morph weights from its character's pose.
pub(crate) fn write_morphs(
    characters: Query<&AnimGraph3D>,
    mut meshes: Query<(&AnimGraphMorphs, &mut MorphWeights)>,
) {
    meshes.par_iter_mut().for_each(|(m, mut weights)| {
        let Some(pose) =
            characters.get(m.character).ok().and_then(|c| c.character()).map(|c| &c.backend.pose)
        else {
            return;
        };
        let range = m.first as usize..(m.first + m.count) as usize;
        let Some(source) = pose.morph_weights.get(range) else { return };
        let n = source.len().min(weights.weights().len());
        if weights.weights()[..n] != source[..n] {
            weights.weights_mut()[..n].copy_from_slice(&source[..n]);
        }
    });
}
