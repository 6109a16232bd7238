//! Clip libraries: clips from another file (a Mixamo, KayKit or Blender NLA "animation pack")
//! added to a character whose joints they match by name.
//!
//! Rules (documented in the README's glTF section):
//! - Joints match by exact name; failing that, by name without any prefix up to the last `:`
//!   (`mixamorig:Hips` matches `mixamorig1:Hips`), case-insensitively. Morph groups match by
//!   name.
//! - Channels on joints the character lacks are dropped; the joints missing on either side are
//!   reported once per library (one line each, not per clip).
//! - [`Retarget::RestOffset`] (the default): translation keys move by the difference between the
//!   character's rest translation and the library's (so a library whose skeleton is a little
//!   taller or shorter keeps the character's proportions and only adds the motion); rotations and
//!   scales are taken as keyed. [`Retarget::AsIs`] takes every value as keyed.
//! - A library clip named like a clip the character already has is renamed `Name.1` (`.2`, ...).

use std::collections::HashMap;

use crate::skeleton::{Clip3D, Interpolation, Property, Skeleton3D};

/// How library translations map onto the character.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Retarget {
    /// Translations shifted by `character rest - library rest` per joint.
    #[default]
    RestOffset,
    /// Every value as the library keys it.
    AsIs,
}

/// What adding a library did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LibraryReport {
    /// The clips added, under the names the character knows them by.
    pub clips: Vec<String>,
    /// One-line findings (joints missing on either side, renamed clips).
    pub warnings: Vec<String>,
}

fn short(name: &str) -> String {
    name.rsplit(':').next().unwrap_or(name).to_ascii_lowercase()
}

impl Skeleton3D {
    /// Adds `library`'s clips (see the module docs for the rules). `source` names the library
    /// in findings. Fails when no joint matches at all (the file drives another skeleton).
    pub fn add_library(
        &mut self,
        library: &Skeleton3D,
        retarget: Retarget,
        source: &str,
    ) -> Result<LibraryReport, String> {
        let by_short: HashMap<String, usize> =
            self.names.iter().enumerate().map(|(i, n)| (short(n), i)).collect();
        let map: Vec<Option<u16>> = library
            .names
            .iter()
            .map(|n| self.bone_index(n).or_else(|| by_short.get(&short(n)).copied()).map(|i| i as u16))
            .collect();
        let keyed: Vec<bool> = {
            let mut k = vec![false; library.bone_count()];
            for c in library.clips.iter().flat_map(|c| &c.channels) {
                k[c.joint as usize] = true;
            }
            k
        };
        let matched = map.iter().filter(|m| m.is_some()).count();
        if matched == 0 {
            return Err(format!(
                "{source}: none of its {} joints is named like a joint of the character (e.g. \"{}\" vs \"{}\"); a clip library must come from the same rig",
                library.bone_count(),
                library.names.first().map_or("", String::as_str),
                self.names.first().map_or("", String::as_str),
            ));
        }
        let mut report = LibraryReport::default();
        let missing: Vec<String> = library
            .names
            .iter()
            .zip(&map)
            .zip(&keyed)
            .filter(|((_, m), k)| m.is_none() && **k)
            .map(|((n, _), _)| n.clone())
            .collect();
        if !missing.is_empty() {
            report.warnings.push(format!(
                "{source}: {} keyed joints are not in the character, their channels are dropped: {}",
                missing.len(),
                crate::import::list(&missing, 6)
            ));
        }
        let covered: Vec<bool> = {
            let mut c = vec![false; self.bone_count()];
            for m in map.iter().flatten() {
                c[*m as usize] = true;
            }
            c
        };
        let absent: Vec<String> =
            self.names.iter().zip(&covered).filter(|(_, c)| !**c).map(|(n, _)| n.clone()).collect();
        if !absent.is_empty() {
            report.warnings.push(format!(
                "{source}: {} of the character's joints are not in the library; its clips leave them to the pose below: {}",
                absent.len(),
                crate::import::list(&absent, 6)
            ));
        }
        let group_map: Vec<Option<u16>> = library
            .morph_groups
            .iter()
            .map(|g| {
                self.morph_groups
                    .iter()
                    .position(|o| o.name == g.name && o.default_weights.len() == g.default_weights.len())
                    .map(|i| i as u16)
            })
            .collect();
        for clip in &library.clips {
            let mut name = clip.name.clone();
            if self.clip(&name).is_some() {
                let mut k = 1;
                while self.clip(&format!("{}.{k}", clip.name)).is_some() {
                    k += 1;
                }
                name = format!("{}.{k}", clip.name);
                report.warnings.push(format!(
                    "{source}: clip {} is renamed {name}; the character has one so named",
                    clip.name
                ));
            }
            let mut channels = Vec::with_capacity(clip.channels.len());
            for c in &clip.channels {
                let Some(joint) = map[c.joint as usize] else { continue };
                let mut c = c.clone();
                if retarget == Retarget::RestOffset && c.property == Property::Translation {
                    let shift = (self.setup_translation[joint as usize]
                        - library.setup_translation[c.joint as usize])
                        .extend(0.0);
                    let cubic = c.interpolation == Interpolation::CubicSpline;
                    for (i, v) in c.values.iter_mut().enumerate() {
                        if !cubic || i % 3 == 1 {
                            *v += shift;
                        }
                    }
                }
                c.joint = joint;
                channels.push(c);
            }
            let morph = clip
                .morph
                .iter()
                .filter_map(|m| {
                    group_map[m.group as usize]
                        .map(|g| crate::skeleton::MorphChannel { group: g, ..m.clone() })
                })
                .collect();
            report.clips.push(name.clone());
            self.push_clip(Clip3D {
                name,
                duration: clip.duration,
                channels,
                morph,
                markers: clip.markers.clone(),
            });
        }
        Ok(report)
    }
}
