//! Drawing 2D characters (`render` feature): one textured, deformed [`Mesh2d`] per character,
//! rebuilt in place every frame.
//!
//! Every slot that shows a drawable attachment adds its triangles in the pose's draw order, so
//! one draw call paints the character back to front. The material blends premultiplied colour:
//! a vertex's colour is the slot's tint (slot colour x attachment colour, RGB converted to
//! linear, times alpha), and its alpha is the opacity for normal slots and 0 for additive ones
//! (premultiplied "plus": the colour adds, nothing is covered), so normal and additive slots
//! share the one mesh. Multiply and screen slots draw as normal ones, and the two-colour tint's
//! dark colour and clipping attachments are not drawn (the CPU renderer of `animgraph-2d` draws
//! all of them); a character whose slots use more than one atlas page draws the first page's
//! slots only and logs it once.

use animgraph_2d::data::BlendMode;
use animgraph_2d::{Pose, Skeleton2D, WorldVertices};
use bevy::asset::{Asset, AssetPath, Assets, Handle, RenderAssetUsages, embedded_asset, embedded_path};
use bevy::color::{ColorToComponents, LinearRgba, Srgba};
use bevy::ecs::prelude::*;
use bevy::image::Image;
use bevy::math::Vec2;
use bevy::mesh::{
    Indices, Mesh, Mesh2d, MeshVertexBufferLayoutRef, PrimitiveTopology, VertexAttributeValues,
};
use bevy::prelude::{App, AssetServer, Plugin};
use bevy::reflect::TypePath;
use bevy::render::render_resource::{
    AsBindGroup, BlendState, RenderPipelineDescriptor, SpecializedMeshPipelineError,
};
use bevy::shader::ShaderRef;
use bevy::sprite_render::{AlphaMode2d, Material2d, Material2dKey, Material2dPlugin, MeshMaterial2d};

use crate::{AnimGraph2D, SkeletonAsset};

/// Draws an [`AnimGraph2D`] character on the same entity as a mesh (skeleton units are world
/// units; the skeleton's y-down space is flipped to Bevy's y-up). Add it beside the character
/// (and a `Transform` to place and scale it); the mesh and material are made once the skeleton
/// has loaded.
#[derive(Component, Debug, Default)]
pub struct AnimGraphSprite {
    drawn: Option<Drawn>,
}

#[derive(Debug)]
struct Drawn {
    /// Made on the first frame the page's size is known, with that frame's triangles (Bevy's
    /// renderer does not take an empty mesh well).
    mesh: Option<Handle<Mesh>>,
    material: Handle<Skeleton2DMaterial>,
    texture: Option<Handle<Image>>,
    /// The page drawn, and its size in pixels when the atlas gives it.
    page: u16,
    page_size: Option<Vec2>,
    /// Whether a slot on another page was skipped (logged once).
    warned: bool,
    /// Each slot's world vertices, sized once per skeleton.
    vertices: WorldVertices,
}

/// The material of 2D characters: their page's texture, premultiplied-alpha blending.
#[derive(Asset, AsBindGroup, TypePath, Debug, Clone)]
pub struct Skeleton2DMaterial {
    /// The atlas page (white where there is none).
    #[texture(0)]
    #[sampler(1)]
    pub texture: Option<Handle<Image>>,
    /// 1 when the page's colours are already premultiplied (Spine's "pma" pages), else 0.
    #[uniform(2)]
    pub premultiplied: u32,
}

impl Material2d for Skeleton2DMaterial {
    fn fragment_shader() -> ShaderRef {
        ShaderRef::Path(AssetPath::from_path_buf(embedded_path!("skeleton_2d.wgsl")).with_source("embedded"))
    }

    fn alpha_mode(&self) -> AlphaMode2d {
        AlphaMode2d::Blend
    }

    fn specialize(
        descriptor: &mut RenderPipelineDescriptor,
        _layout: &MeshVertexBufferLayoutRef,
        _key: Material2dKey<Self>,
    ) -> Result<(), SpecializedMeshPipelineError> {
        if let Some(fragment) = descriptor.fragment.as_mut() {
            for target in fragment.targets.iter_mut().flatten() {
                target.blend = Some(BlendState::PREMULTIPLIED_ALPHA_BLENDING);
            }
        }
        Ok(())
    }
}

/// The material and the drawing system.
pub(crate) struct Draw2DPlugin;

impl Plugin for Draw2DPlugin {
    fn build(&self, app: &mut App) {
        embedded_asset!(app, "skeleton_2d.wgsl");
        app.add_plugins(Material2dPlugin::<Skeleton2DMaterial>::default());
    }
}

/// Makes each new sprite's mesh and material once its skeleton has loaded, then rewrites its
/// vertices from the pose every frame (the buffers keep their capacity: no allocation once
/// they have grown to the character's largest frame).
pub(crate) fn draw_2d(
    mut commands: Commands,
    mut sprites: Query<(Entity, &AnimGraph2D, &mut AnimGraphSprite)>,
    skeletons: Res<Assets<SkeletonAsset>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<Skeleton2DMaterial>>,
    images: Res<Assets<Image>>,
    server: Res<AssetServer>,
) {
    for (entity, character, mut sprite) in &mut sprites {
        let Some(c) = character.character() else { continue };
        let skeleton = c.backend.skeleton();
        if sprite.drawn.is_none() {
            let Some(asset) = skeletons.get(&character.skeleton) else { continue };
            sprite.drawn = Some(start(skeleton, asset, &mut materials, &server));
        }
        let Some(drawn) = sprite.drawn.as_mut() else { continue };
        // Texture coordinates are in page pixels: the atlas gives the page's size, else the
        // loaded image does (nothing is drawn until it has loaded).
        let size = match (drawn.page_size, &drawn.texture) {
            (Some(size), _) => size,
            (None, Some(texture)) => match images.get(texture) {
                Some(image) => image.size_f32(),
                None => continue,
            },
            (None, None) => Vec2::ONE,
        };
        drawn.vertices.update(skeleton, &c.backend.pose);
        let pose = &c.backend.pose;
        let skipped = match &drawn.mesh {
            Some(handle) => {
                let Some(mut mesh) = meshes.get_mut(handle) else { continue };
                fill(&mut mesh, skeleton, pose, &drawn.vertices, drawn.page, size)
            }
            None => {
                let mut mesh = Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default());
                let skipped = fill(&mut mesh, skeleton, pose, &drawn.vertices, drawn.page, size);
                let handle = meshes.add(mesh);
                commands
                    .entity(entity)
                    .insert((Mesh2d(handle.clone()), MeshMaterial2d(drawn.material.clone())));
                drawn.mesh = Some(handle);
                skipped
            }
        };
        if skipped && !drawn.warned {
            drawn.warned = true;
            bevy::log::warn!("{entity}: slots on atlas pages other than {} are not drawn", drawn.page);
        }
    }
}

/// A sprite's material (its mesh comes once the page's size is known).
fn start(
    skeleton: &Skeleton2D,
    asset: &SkeletonAsset,
    materials: &mut Assets<Skeleton2DMaterial>,
    server: &AssetServer,
) -> Drawn {
    let page = skeleton.geometry.iter().find_map(|g| g.page).unwrap_or(0);
    let source = asset.pages.get(page as usize).cloned().flatten();
    let texture = source.as_ref().map(|(path, _)| server.load::<Image>(path.clone()));
    let premultiplied = u32::from(source.is_some_and(|(_, pma)| pma));
    let material = materials.add(Skeleton2DMaterial { texture: texture.clone(), premultiplied });
    let page_size = skeleton
        .data
        .atlas
        .as_ref()
        .and_then(|a| a.pages.get(page as usize))
        .map(|p| Vec2::new(p.width.max(1) as f32, p.height.max(1) as f32));
    Drawn {
        mesh: None,
        material,
        texture,
        page,
        page_size,
        warned: false,
        vertices: WorldVertices::new(skeleton),
    }
}

/// Takes an attribute's values out of the mesh (to fill several at once), or an empty list.
fn take<T>(
    mesh: &mut Mesh,
    id: bevy::mesh::MeshVertexAttribute,
    pick: fn(&mut VertexAttributeValues) -> Option<&mut Vec<T>>,
) -> Vec<T> {
    mesh.attribute_mut(id).and_then(pick).map(std::mem::take).unwrap_or_default()
}

/// The pose's triangles into the mesh, back to front; whether a slot on another page was
/// skipped.
fn fill(
    mesh: &mut Mesh,
    skeleton: &Skeleton2D,
    pose: &Pose,
    vertices: &WorldVertices,
    page: u16,
    size: Vec2,
) -> bool {
    let mut positions = take(mesh, Mesh::ATTRIBUTE_POSITION, |v| match v {
        VertexAttributeValues::Float32x3(v) => Some(v),
        _ => None,
    });
    let mut uvs = take(mesh, Mesh::ATTRIBUTE_UV_0, |v| match v {
        VertexAttributeValues::Float32x2(v) => Some(v),
        _ => None,
    });
    let mut colors = take(mesh, Mesh::ATTRIBUTE_COLOR, |v| match v {
        VertexAttributeValues::Float32x4(v) => Some(v),
        _ => None,
    });
    let mut indices = match mesh.indices_mut() {
        Some(Indices::U32(i)) => std::mem::take(i),
        _ => Vec::new(),
    };
    positions.clear();
    uvs.clear();
    colors.clear();
    indices.clear();
    let mut skipped = false;
    for &slot in &pose.draw_order {
        let slot = slot as usize;
        let Some((a, world)) = vertices.slot(skeleton, slot) else { continue };
        let geometry = &skeleton.geometry[a as usize];
        if geometry.triangles.is_empty() {
            continue; // Paths and clipping polygons draw nothing.
        }
        if geometry.page.is_some_and(|p| p != page) {
            skipped = true;
            continue;
        }
        let attachment = &skeleton.attachments[a as usize];
        let tint: [f32; 4] = std::array::from_fn(|i| pose.colors[slot][i] * attachment.color[i]);
        let alpha = tint[3].clamp(0.0, 1.0);
        if alpha <= 0.0 {
            continue;
        }
        // Premultiplied: linear RGB times alpha; additive slots cover nothing (alpha 0).
        let linear = LinearRgba::from(Srgba::new(tint[0], tint[1], tint[2], 1.0)).to_f32_array();
        let covers = match skeleton.data.slots[slot].blend {
            BlendMode::Additive => 0.0,
            BlendMode::Normal | BlendMode::Multiply | BlendMode::Screen => alpha,
        };
        let color = [linear[0] * alpha, linear[1] * alpha, linear[2] * alpha, covers];
        let first = positions.len() as u32;
        // Through plain floats: the runtime's glam and Bevy's may be different versions.
        for (p, uv) in world.iter().zip(&geometry.uvs) {
            positions.push([p.x, -p.y, 0.0]);
            uvs.push([uv.x / size.x, uv.y / size.y]);
            colors.push(color);
        }
        for t in &geometry.triangles {
            indices.extend(t.map(|i| first + u32::from(i)));
        }
    }
    mesh.insert_attribute(Mesh::ATTRIBUTE_POSITION, positions);
    mesh.insert_attribute(Mesh::ATTRIBUTE_UV_0, uvs);
    mesh.insert_attribute(Mesh::ATTRIBUTE_COLOR, colors);
    mesh.insert_indices(Indices::U32(indices));
    skipped
}
