// Reference poses from Spine's official runtime (@esotericsoftware/spine-core), for tests only.
//
//   cd tools/spine-oracle && npm ci && node oracle.mjs ../../crates/animgraph-2d/tests/spine/oracle
//
// For every `NAME.json` Spine export in the folder (not `*.expected.json`), writes
// `NAME.expected.json`: for each animation, at 21 evenly spaced times over its duration (and at
// the times listed in the export's `"oracleTimes"` top-level field, if any), every bone's world
// transform `[worldX, worldY, a, b, c, d]` (Spine's y-up space; active bones only) and every slot's region
// attachment corners `[x0, y0, ..., x3, y3]` (world, y-up), every slot's attachment name and
// colour, and the draw order, after
//
//   skeleton.setToSetupPose(); animation.apply(skeleton, t, t, false, [], 1, setup, mixIn);
//   skeleton.updateWorldTransform(Physics.none)
//
// which is what playing one clip alone at full weight means; also every mesh's deformed world
// vertices `[x0, y0, ...]` and every path's world vertices (`paths`). Without an atlas, attachments are created without texture regions
// (poses do not depend on them); with `NAME.atlas` beside the fixture, its regions are used and
// every region's and mesh's texture coordinates (`uvs`, 0..1 of the page) are written too.
// `"oracleSkins": [names]` in the fixture combines those skins on the skeleton first. For
// attachments with a sequence, the frame shown (its region's name, `frames`), and for sequence
// regions their corners and texture coordinates.
import * as spine from "@esotericsoftware/spine-core";
import fs from "node:fs";
import path from "node:path";

class NoAtlas {
  newRegionAttachment(skin, name, p) { return new spine.RegionAttachment(name, p); }
  newMeshAttachment(skin, name, p) { return new spine.MeshAttachment(name, p); }
  newBoundingBoxAttachment(skin, name) { return new spine.BoundingBoxAttachment(name); }
  newPathAttachment(skin, name) { return new spine.PathAttachment(name); }
  newPointAttachment(skin, name) { return new spine.PointAttachment(name); }
  newClippingAttachment(skin, name) { return new spine.ClippingAttachment(name); }
}

const version = JSON.parse(
  fs.readFileSync(new URL("./node_modules/@esotericsoftware/spine-core/package.json", import.meta.url), "utf8"),
).version;
const round = (v) => Math.round(v * 1e6) / 1e6;

function poses(text, atlasText) {
  const json = JSON.parse(text);
  // With an atlas beside the fixture, attachments get its regions (texture coordinates are
  // reported); without one, whole-image regions of their own size.
  const atlas = atlasText ? new spine.TextureAtlas(atlasText) : null;
  const loader = atlas ? new spine.AtlasAttachmentLoader(atlas) : new NoAtlas();
  const data = new spine.SkeletonJson(loader).readSkeletonData(json);
  // Region attachments get a whole-image region of their own size, so their corners can be
  // reported (no texture is needed for positions).
  for (const skin of data.skins) {
    for (const entry of skin.getAttachments()) {
      const a = entry.attachment;
      if (!atlas && a instanceof spine.RegionAttachment) {
        a.region = { u: 0, v: 0, u2: 1, v2: 1, width: a.width, height: a.height, degrees: 0,
          offsetX: 0, offsetY: 0, originalWidth: a.width, originalHeight: a.height };
        a.updateRegion();
      }
    }
  }
  const skeleton = new spine.Skeleton(data);
  // `"oracleSkins": [names]` combines skins (later ones win), as mix-and-match does.
  if (json.oracleSkins) {
    const combined = new spine.Skin("combined");
    for (const name of json.oracleSkins) combined.addSkin(data.findSkin(name));
    skeleton.setSkin(combined);
  }
  const out = [];
  for (const animation of data.animations) {
    const times = new Set();
    for (let i = 0; i <= 20; i++) times.add(round((animation.duration * i) / 20));
    for (const t of json.oracleTimes ?? []) times.add(t);
    for (const time of [...times].sort((a, b) => a - b)) {
      // The time as an f32, as the runtime stores key times and as our player passes time (a
      // double 0.4 is below the f32 key time 0.4 and would read the previous key).
      const t = Math.fround(time);
      skeleton.setToSetupPose();
      animation.apply(skeleton, t, t, false, [], 1, spine.MixBlend.setup, spine.MixDirection.mixIn);
      skeleton.updateWorldTransform(spine.Physics.none);
      const bones = {};
      for (const b of skeleton.bones) {
        // A skin-required bone the shown skins lack is inactive: Spine never poses it.
        if (!b.active) continue;
        bones[b.data.name] = [b.worldX, b.worldY, b.a, b.b, b.c, b.d].map(round);
      }
      // Each slot's region attachment: its four corners in world space; every slot's attachment
      // name (or null) and colour; the draw order.
      const regions = {}, attachments = {}, colors = {}, darks = {}, frames = {}, meshes = {}, uvs = {}, paths = {};
      const drawOrder = skeleton.drawOrder.map((slot) => slot.data.name);
      for (const slot of skeleton.slots) {
        const a = slot.getAttachment();
        attachments[slot.data.name] = a ? a.name : null;
        colors[slot.data.name] = [slot.color.r, slot.color.g, slot.color.b, slot.color.a].map(round);
        // The two-colour tint's dark colour, for slots that have one.
        if (slot.darkColor) darks[slot.data.name] = [slot.darkColor.r, slot.darkColor.g, slot.darkColor.b].map(round);
        // A sequence attachment's frame: the region it shows now (Spine applies the slot's
        // sequence index when it draws), and for a region its corners and texture coordinates.
        if (atlas && a && a.sequence) {
          a.sequence.apply(slot, a);
          frames[slot.data.name] = a.region ? a.region.name : null;
          if (a instanceof spine.RegionAttachment) {
            const v = new Array(8).fill(0);
            a.computeWorldVertices(slot, v, 0, 2);
            regions[slot.data.name] = v.map(round);
            uvs[slot.data.name] = Array.from(a.uvs).map(round);
          }
        }
        // (Without an atlas a sequence has no regions to show: skipped.)
        if (!atlas && a instanceof spine.RegionAttachment && !a.sequence) {
          const v = new Array(8).fill(0);
          a.computeWorldVertices(slot, v, 0, 2);
          regions[slot.data.name] = v.map(round);
          if (atlas) uvs[slot.data.name] = Array.from(a.uvs).map(round);
        }
        if (a instanceof spine.MeshAttachment) {
          const v = new Array(a.worldVerticesLength).fill(0);
          a.computeWorldVertices(slot, 0, a.worldVerticesLength, v, 0, 2);
          meshes[slot.data.name] = v.map(round);
          if (atlas) uvs[slot.data.name] = Array.from(a.uvs).map(round);
        }
        if (a instanceof spine.PathAttachment) {
          const v = new Array(a.worldVerticesLength).fill(0);
          a.computeWorldVertices(slot, 0, a.worldVerticesLength, v, 0, 2);
          paths[slot.data.name] = v.map(round);
        }
      }
      out.push({ animation: animation.name, time, bones, regions, meshes, paths, uvs, attachments, colors, darks, frames, drawOrder });
    }
  }
  return { runtime: `@esotericsoftware/spine-core ${version}`, poses: out };
}

// Page sizes, so a test can turn the texture coordinates (0..1 of the page) into pixels.
function atlas_pages(text) {
  return new spine.TextureAtlas(text).pages.map((p) => ({ name: p.name, width: p.width, height: p.height }));
}

const folder = process.argv[2];
if (!folder) {
  console.error("usage: node oracle.mjs FOLDER (Spine JSON fixtures; writes NAME.expected.json beside each)");
  process.exit(2);
}
for (const file of fs.readdirSync(folder).sort()) {
  if (!file.endsWith(".json") || file.endsWith(".expected.json")) continue;
  const atlasFile = path.join(folder, file.replace(/\.json$/, ".atlas"));
  const atlasText = fs.existsSync(atlasFile) ? fs.readFileSync(atlasFile, "utf8") : null;
  const result = poses(fs.readFileSync(path.join(folder, file), "utf8"), atlasText);
  if (atlasText) result.atlas = { pages: atlas_pages(atlasText) };
  const target = path.join(folder, file.replace(/\.json$/, ".expected.json"));
  fs.writeFileSync(target, JSON.stringify(result) + "\n");
  console.log(`${file}: ${result.poses.length} poses -> ${path.basename(target)}`);
}
