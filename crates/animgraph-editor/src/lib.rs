//! # animgraph-editor
//!
//! The animgraph editor: an eframe/egui desktop app for `.mres` animation graphs. Every rule it
//! applies comes from the runtime crate (validation, renames, the player); this crate holds only
//! editor state and drawing.
//!
//! | module | holds |
//! |---|---|
//! | [`document`] | the UI-free model: a graph, its undo history, selection, save and reload |
//! | [`app`] | the window: tabs, toolbar, panels, prompts |
//! | [`canvas`] | states and transitions, and the gestures that edit them |
//! | [`blend_editor`] | a blend space's points, triangulation, weights and preview point |
//! | [`inspector`] | the selection's fields, the layer's and the graph's |
//! | [`parameters`] | the parameter panel and the live controls |
//! | [`live`] | the runtime player running in the editor |
//! | [`preview`] | the chosen skeleton drawn as the live player poses it, and the event log |
//! | [`character`] | the skeleton chosen for a graph |
//! | [`debug`] | live debugging of a running game over the link, read-only |
//! | [`timeline`] | record and scrub the preview or an attached game; recordings saved and opened |
//! | [`settings`] | recent files and per-graph skeletons, outside the `.mres` |
//! | [`files`] | native file dialogs on a background thread |
//! | [`why`] | why a transition did or did not fire on the last frame (explain mode) |
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod app;
pub mod blend_editor;
pub mod canvas;
pub mod character;
pub mod debug;
pub mod document;
pub mod files;
pub mod inspector;
pub mod layout;
pub mod live;
pub mod parameters;
pub mod preview;
pub mod recovery;
pub mod settings;
pub mod timeline;
pub mod transition_timeline;
pub mod why;

#[cfg(test)]
mod ui_tests;

pub use app::{Editor, run};
