//! Native file dialogs (`rfd`: the desktop's file-chooser portal on Linux, the system dialogs on
//! Windows and macOS), run on a background thread so the editor keeps drawing while one is open.
//! Where the desktop has no file chooser (a bare X server), the dialog returns nothing at once;
//! the toolbar's path field does the same job by typing.

use std::path::PathBuf;
use std::sync::mpsc;

/// What a dialog was opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Open graphs.
    Open,
    /// Save the active graph under a new name.
    SaveAs,
    /// Choose the active graph's skeleton.
    Skeleton,
    /// Add a clip library to the active graph's (glTF) skeleton.
    ClipLibrary,
}

/// At most one dialog at a time.
#[derive(Default)]
pub struct Dialogs {
    pending: Option<(Purpose, mpsc::Receiver<Vec<PathBuf>>)>,
}

impl Dialogs {
    /// Whether a dialog is open.
    pub fn busy(&self) -> bool {
        self.pending.is_some()
    }

    /// Opens a dialog (ignored while another one is open).
    pub fn ask(&mut self, purpose: Purpose, start: Option<PathBuf>) {
        if self.pending.is_some() {
            return;
        }
        let (send, receive) = mpsc::channel();
        let spawned = std::thread::Builder::new().name("animgraph-dialog".into()).spawn(move || {
            let mut dialog = rfd::FileDialog::new();
            if let Some(dir) = start {
                dialog = dialog.set_directory(dir);
            }
            let chosen = match purpose {
                Purpose::Open => {
                    dialog.add_filter("Animation graph", &["mres"]).pick_files().unwrap_or_default()
                }
                Purpose::SaveAs => dialog
                    .add_filter("Animation graph", &["mres"])
                    .set_file_name("graph.mres")
                    .save_file()
                    .into_iter()
                    .collect(),
                Purpose::Skeleton => {
                    dialog.add_filter("Skeleton", &["mskel", "glb", "gltf"]).pick_file().into_iter().collect()
                }
                Purpose::ClipLibrary => {
                    dialog.add_filter("glTF clip library", &["glb", "gltf"]).pick_files().unwrap_or_default()
                }
            };
            let _ = send.send(chosen);
        });
        if spawned.is_ok() {
            self.pending = Some((purpose, receive));
        }
    }

    /// A finished dialog's purpose and chosen paths (empty when cancelled or unavailable).
    pub fn poll(&mut self) -> Option<(Purpose, Vec<PathBuf>)> {
        let (purpose, receive) = self.pending.as_ref()?;
        let result = match receive.try_recv() {
            Ok(paths) => (*purpose, paths),
            Err(mpsc::TryRecvError::Empty) => return None,
            Err(mpsc::TryRecvError::Disconnected) => (*purpose, Vec::new()),
        };
        self.pending = None;
        Some(result)
    }
}
