//! The real editor UI driven headlessly through its accessibility tree (egui_kittest): widgets
//! are found by their labels and values, as a user finds them, and the canvas is driven with
//! pointer events.

use std::path::PathBuf;

use eframe::egui::{self, Event, Modifiers, PointerButton, Pos2, Role, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, Queryable};

use crate::app::Editor;
use crate::document::{Document, Selection};
use crate::settings::Settings;

fn scratch_dir(name: &str) -> PathBuf {
    animgraph_test_support::scratch_dir(&format!("editor-ui-{name}"))
}

/// A copy of a bundled graph in a temporary directory, so saving cannot touch the assets.
fn scratch_copy(name: &str) -> PathBuf {
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/gbot/gbot.mres");
    let path = scratch_dir(name).join("gbot.mres");
    std::fs::copy(source, &path).unwrap();
    path
}

fn harness(editor: Editor) -> Harness<'static, Editor> {
    let mut harness = Harness::builder().with_size([1280.0, 800.0]).build_ui_state(
        |ui, editor: &mut Editor| {
            // Paused, so frames settle (a running live player repaints continuously).
            for tab in &mut editor.tabs {
                tab.live.running = false;
            }
            editor.show(ui)
        },
        editor,
    );
    harness.run_steps(3);
    harness
}

fn open(path: PathBuf) -> Harness<'static, Editor> {
    harness(Editor::new(vec![path], Settings::default()))
}

/// The index of the `from -> to` transition in the shown machine.
fn transition_index(h: &Harness<'_, Editor>, from: &str, to: &str) -> usize {
    let m = doc(h).machine().unwrap();
    m.transitions.iter().position(|t| t.from == from && t.to == to).unwrap()
}

fn doc<'h>(h: &'h Harness<'_, Editor>) -> &'h Document {
    &h.state().tabs[h.state().active].doc
}

fn button(h: &Harness<'_, Editor>, pos: Pos2, button: PointerButton, pressed: bool) {
    h.event(Event::PointerButton { pos, button, pressed, modifiers: Modifiers::NONE });
}

/// Presses at `from`, moves in steps to `to` and releases there.
fn drag(h: &mut Harness<'_, Editor>, from: Pos2, to: Pos2) {
    h.hover_at(from);
    h.run_steps(1);
    button(h, from, PointerButton::Primary, true);
    h.run_steps(1);
    for k in 1..=5 {
        h.hover_at(from.lerp(to, k as f32 / 5.0));
        h.run_steps(1);
    }
    button(h, to, PointerButton::Primary, false);
    h.run_steps(3);
}

fn right_click(h: &mut Harness<'_, Editor>, at: Pos2) {
    h.hover_at(at);
    h.run_steps(1);
    button(h, at, PointerButton::Secondary, true);
    button(h, at, PointerButton::Secondary, false);
    h.run_steps(3);
}

fn canvas_centre(h: &Harness<'_, Editor>) -> Pos2 {
    h.get_by_label("Graph canvas").rect().center()
}

/// Replaces a text field's contents the way a user does: focus, select all, type, Enter.
fn retype(h: &mut Harness<'_, Editor>, by: By<'_>, text: &str) {
    retype_then(h, by, text, egui::Key::Enter);
}

/// Replaces a text field's contents with `text`, then presses `key` (Enter commits, Escape
/// cancels).
fn retype_then(h: &mut Harness<'_, Editor>, by: By<'_>, text: &str, key: egui::Key) {
    let field = h.get(by);
    field.focus();
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::A);
    h.run_steps(1);
    h.event(Event::Text(text.to_string()));
    h.run_steps(1);
    h.key_press(key);
    h.run_steps(3);
}

/// Opens the combo box showing `shown` (the `nth` such) and picks `option`.
fn pick(h: &mut Harness<'_, Editor>, shown: &str, nth: usize, option: &str) {
    let combos: Vec<_> = h.get_all(By::new().value(shown).role(Role::ComboBox)).collect();
    assert!(combos.len() > nth, "no combo box #{nth} showing {shown:?}");
    combos[nth].click();
    drop(combos);
    h.run_steps(2);
    // The open popup is the last thing in the tree (other widgets may show the same text).
    let options: Vec<_> = h.get_all_by_label(option).collect();
    options.last().unwrap_or_else(|| panic!("no option {option:?}")).click();
    drop(options);
    h.run_steps(3);
}

fn set_number(h: &mut Harness<'_, Editor>, label: &str, nth: usize, value: f64) {
    let fields: Vec<_> = h.get_all_by_label(label).collect();
    assert!(fields.len() > nth, "no number #{nth} labelled {label:?}");
    fields[nth].set_value_accesskit(value);
    drop(fields);
    h.run_steps(3);
}

#[test]
fn opens_the_file_and_shows_its_layers_and_parameters() {
    let h = open(scratch_copy("open"));
    assert_eq!(doc(&h).graph.layers.len(), 3);
    h.get_by_label("UpperBody");
    h.get_by_label("Breathing");
    h.get_by_label("Problems (0)");
    assert!(h.get_all_by_value("wave_weight").next().is_some());
    // The canvas names its states for assistive technology (and for these tests).
    h.get_by_label("Move (1D blend space)");
    h.get_by_label("Air (sub-machine)");
}

#[test]
fn switching_layers_changes_the_canvas_layer_and_is_not_an_edit() {
    let mut h = open(scratch_copy("layers"));
    h.get_by_label("UpperBody").click();
    h.run_steps(2);
    assert_eq!(doc(&h).layer, 1);
    assert!(!doc(&h).dirty());
    h.get_by_label("Base").click();
    h.run_steps(2);
    assert_eq!(doc(&h).layer, 0);
}

#[test]
fn adding_a_parameter_undoes_and_redoes_from_the_toolbar() {
    let mut h = open(scratch_copy("undo"));
    let before = doc(&h).graph.clone();
    h.get_by_label("+ Float").click();
    h.run_steps(2);
    assert_eq!(doc(&h).graph.parameters.len(), before.parameters.len() + 1);
    assert!(doc(&h).dirty());
    h.get_by_label("Undo").click();
    h.run_steps(2);
    assert_eq!(doc(&h).graph, before);
    h.get_by_label("Redo").click();
    h.run_steps(2);
    assert_eq!(doc(&h).graph.parameters.len(), before.parameters.len() + 1);
}

#[test]
fn renaming_a_parameter_in_its_field_renames_its_references() {
    let mut h = open(scratch_copy("rename"));
    let references = doc(&h).graph.parameter_references("speed");
    assert!(!references.is_empty());
    let field = h.get(By::new().value("speed").role(Role::TextInput));
    field.focus();
    field.type_text("_x");
    h.run_steps(2);
    // Still typing: nothing renamed yet.
    assert!(doc(&h).graph.parameter("speed").is_some());
    h.key_press(egui::Key::Enter);
    h.run_steps(3);
    assert!(doc(&h).graph.parameter("speed").is_none(), "{}", doc(&h).status);
    assert_eq!(doc(&h).graph.parameter_references("speed_x"), references);
}

#[test]
fn save_writes_a_file_that_reloads_equal() {
    let path = scratch_copy("save");
    let mut h = open(path.clone());
    h.get_by_label("+ Bool").click();
    h.run_steps(2);
    let edited = doc(&h).graph.clone();
    h.get_by_label("Save").click();
    h.run_steps(2);
    assert!(!doc(&h).dirty(), "{}", doc(&h).status);
    let reloaded = animgraph_runtime::mres::load_file(&path).expect("saved file loads").graph;
    assert_eq!(reloaded, edited);
}

#[test]
fn right_clicking_the_canvas_adds_a_state_there() {
    let mut h = open(scratch_copy("add-state"));
    let before = doc(&h).machine().unwrap().states.len();
    let at = canvas_centre(&h) + vec2(0.0, 150.0);
    right_click(&mut h, at);
    h.get_by_label("Add clip state").click();
    h.run_steps(3);
    let m = doc(&h).machine().unwrap();
    assert_eq!(m.states.len(), before + 1);
    assert_eq!(doc(&h).selection, Selection::state(before));
    // It sits where the menu was opened.
    let added = h.get_by_label(&format!("{} (clip)", m.states[before].name)).rect();
    assert!(added.contains(at), "{added:?} does not hold {at:?}");
}

#[test]
fn dragging_from_a_states_edge_onto_another_creates_a_transition() {
    let mut h = open(scratch_copy("connect"));
    let hurt = h.get_by_label("Hurt (clip)").rect();
    let air = h.get_by_label("Air (sub-machine)").rect();
    let before = doc(&h).machine().unwrap().transitions.len();
    let positions: Vec<[f32; 2]> =
        doc(&h).machine().unwrap().states.iter().map(|s| s.editor_position).collect();
    drag(&mut h, Pos2::new(hurt.left() + 2.0, hurt.center().y), air.center());
    let m = doc(&h).machine().unwrap();
    assert_eq!(m.transitions.len(), before + 1, "{}", doc(&h).status);
    let t = m.transitions.last().unwrap();
    assert_eq!((t.from.as_str(), t.to.as_str()), ("Hurt", "Air"));
    assert_eq!(doc(&h).selection, Selection::Transition(before));
    // Dragging from the edge connects; it does not move the state.
    let after: Vec<[f32; 2]> = m.states.iter().map(|s| s.editor_position).collect();
    assert_eq!(after, positions);
    // Dragging the body moves it, as one undo step.
    let body = h.get_by_label("Hurt (clip)").rect().center();
    drag(&mut h, body, body + vec2(7.0, 63.0));
    let hurt_index = doc(&h).machine().unwrap().state_index("Hurt").unwrap();
    let moved = doc(&h).machine().unwrap().states[hurt_index].editor_position;
    assert!(moved[1] > positions[hurt_index][1] + 10.0, "{moved:?}");
    // It lands on the grid's subdivisions.
    assert!(moved.iter().all(|v| (v / crate::canvas::SNAP).fract() == 0.0), "{moved:?}");
    h.get_by_label("Undo").click();
    h.run_steps(2);
    assert_eq!(doc(&h).machine().unwrap().states[hurt_index].editor_position, positions[hurt_index]);
}

#[test]
fn editing_a_condition_row_changes_parameter_operator_and_value() {
    let mut h = open(scratch_copy("condition"));
    // Select the Move -> Air transition (it tests `jump`) by clicking it in the problems-free
    // graph: pick it through the model, then edit its row through the UI.
    let index = transition_index(&h, "Move", "Air");
    h.state_mut().tabs[0].doc.selection = Selection::Transition(index);
    h.run_steps(3);
    let conditions = doc(&h).machine().unwrap().transitions[index].conditions.len();
    h.get_by_label("+ Condition").click();
    h.run_steps(3);
    assert_eq!(doc(&h).machine().unwrap().transitions[index].conditions.len(), conditions + 1);
    // The new row tests the first parameter; make it `speed < 0.5`.
    let first = doc(&h).graph.parameters[0].name.clone();
    pick(&mut h, &first, 0, "speed");
    pick(&mut h, "Greater", 0, "Less");
    set_number(&mut h, "value", 0, 0.5);
    let c = doc(&h).machine().unwrap().transitions[index].conditions[conditions].clone();
    assert_eq!(
        (c.parameter.as_str(), c.op, c.value),
        ("speed", animgraph_runtime::graph::ConditionOp::Less, 0.5)
    );
    let problems = animgraph_runtime::graph::validate(&doc(&h).graph);
    assert!(problems.is_empty(), "{problems:?}");
    // The operator list follows the parameter's type: a trigger offers Triggered only.
    pick(&mut h, "speed", 0, "jump");
    let c = doc(&h).machine().unwrap().transitions[index].conditions[conditions].clone();
    assert_eq!(c.op, animgraph_runtime::graph::ConditionOp::Triggered);
}

#[test]
fn a_band_selects_states_and_ctrl_d_duplicates_them() {
    let mut h = open(scratch_copy("band"));
    let hurt = h.get_by_label("Hurt (clip)").rect();
    let before = doc(&h).machine().unwrap().states.len();
    // A band around Hurt only, started on empty canvas just outside its corner.
    drag(&mut h, hurt.left_top() - vec2(12.0, 12.0), hurt.right_bottom() + vec2(4.0, 4.0));
    let hurt_index = doc(&h).machine().unwrap().state_index("Hurt").unwrap();
    assert_eq!(doc(&h).selection, Selection::state(hurt_index));
    h.hover_at(canvas_centre(&h));
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::D);
    h.run_steps(3);
    let m = doc(&h).machine().unwrap();
    assert_eq!(m.states.len(), before + 1);
    assert!(m.state("Hurt copy").is_some());
}

#[test]
fn an_animator_builds_the_locomotion_graph_from_an_empty_file() {
    let dir = scratch_dir("locomotion");
    let mut h = open(scratch_copy("locomotion-start"));
    h.get_by_label("New").click();
    h.run_steps(3);
    assert_eq!(doc(&h).graph.layers.len(), 1);
    assert!(doc(&h).path.is_none());

    // Parameters: speed (Float) and jump (Trigger).
    h.get_by_label("+ Float").click();
    h.run_steps(2);
    retype(&mut h, By::new().value("float").role(Role::TextInput), "speed");
    h.get_by_label("+ Trigger").click();
    h.run_steps(2);
    retype(&mut h, By::new().value("trigger").role(Role::TextInput), "jump");
    assert_eq!(
        doc(&h).graph.parameters.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
        ["speed", "jump"]
    );

    // Move: a 1D blend space over speed with idle, walk, run at 0, 1.5, 4.
    let centre = canvas_centre(&h);
    right_click(&mut h, centre + vec2(160.0, 110.0));
    h.get_by_label("Add 1D blend space").click();
    h.run_steps(3);
    retype(&mut h, By::new().value("State").role(Role::TextInput), "Move");
    pick(&mut h, "(none)", 1, "speed (Float)");
    for _ in 0..3 {
        h.get_by_label("+ Point").click();
        h.run_steps(2);
    }
    for (k, clip) in ["idle", "walk", "run"].iter().enumerate() {
        let fields: Vec<_> = h.get_all(By::new().label("clip").role(Role::TextInput)).collect();
        fields[k].focus();
        drop(fields);
        h.run_steps(1);
        h.event(Event::Text(clip.to_string()));
        h.key_press(egui::Key::Enter);
        h.run_steps(3);
    }
    set_number(&mut h, "at", 1, 1.5);
    set_number(&mut h, "at", 2, 4.0);

    // Jump: a clip state playing `jump` once.
    right_click(&mut h, centre + vec2(160.0, -110.0));
    h.get_by_label("Add clip state").click();
    h.run_steps(3);
    retype(&mut h, By::new().value("State").role(Role::TextInput), "Jump");
    let clip = h.get(By::new().label("Clip").role(Role::TextInput));
    clip.focus();
    h.run_steps(1);
    h.event(Event::Text("jump".into()));
    h.key_press(egui::Key::Enter);
    h.run_steps(3);
    h.get_by_label("Loop").click();
    h.run_steps(2);

    // * -> Jump on the jump trigger, mixing in 0.1 s: drag out of the Any State box.
    let any = h.get_by_label("Any State").rect();
    let jump = h.get_by_label("Jump (clip)").rect();
    drag(&mut h, any.center(), jump.center());
    h.get_by_label("Duration").click();
    h.run_steps(2);
    set_number(&mut h, "seconds", 0, 0.1);
    h.get_by_label("+ Condition").click();
    h.run_steps(3);
    pick(&mut h, "speed", 0, "jump");

    // Jump -> Move after 0.9 of the jump: drag from Jump's edge.
    let jump = h.get_by_label("Jump (clip)").rect();
    let move_ = h.get_by_label("Move (1D blend space)").rect();
    drag(&mut h, Pos2::new(jump.left() + 2.0, jump.center().y), move_.center());
    assert_eq!(doc(&h).selection, Selection::Transition(1), "{}", doc(&h).status);
    h.get_by_label("Exit time").click();
    h.run_steps(2);
    set_number(&mut h, "normalised time", 0, 0.9);

    // Save it and compare with the proposal's example (positions and uid aside).
    let path = dir.join("locomotion.mres");
    let field = h.get(By::new().label("Path").role(Role::TextInput));
    field.focus();
    field.type_text(path.to_str().unwrap());
    h.run_steps(1);
    h.get_by_label("Save to path").click();
    h.run_steps(3);
    assert!(!doc(&h).dirty(), "{}", doc(&h).status);
    let mut built = animgraph_runtime::mres::load_file(&path)
        .expect("the saved graph loads in the runtime")
        .graph
        .into_graph();
    let example = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/graphs/locomotion.mres");
    let mut expected = animgraph_runtime::mres::load_file(example).unwrap().graph.into_graph();
    for g in [&mut built, &mut expected] {
        g.uid.clear();
        for s in &mut g.layers[0].machine.states {
            s.editor_position = [0.0, 0.0];
        }
    }
    assert_eq!(built, expected);

    // Every step undoes, back to the empty graph.
    let mut steps = 0;
    while doc(&h).can_undo().0 {
        h.get_by_label("Undo").click();
        h.run_steps(1);
        steps += 1;
        assert!(steps < 200, "undo never ends");
    }
    assert!(doc(&h).graph.parameters.is_empty() && doc(&h).graph.layers[0].machine.states.is_empty());
    assert!(steps >= 15, "only {steps} undo steps");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn closing_a_tab_with_unsaved_changes_asks_first() {
    let mut h = open(scratch_copy("close"));
    h.get_by_label("+ Int").click();
    h.run_steps(2);
    h.get_by_label("Close gbot.mres *").click();
    h.run_steps(2);
    // A new window takes a sizing frame before it shows.
    h.run_steps(3);
    h.get_by_label("Save the changes to gbot.mres * before closing?");
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert_eq!(h.state().tabs.len(), 1);
    assert!(doc(&h).path.is_some());
    h.get_by_label("Close gbot.mres *").click();
    h.run_steps(2);
    h.get_by_label("Close without saving").click();
    h.run_steps(2);
    // The last tab closed: an untitled graph takes its place.
    assert_eq!(h.state().tabs.len(), 1);
    assert!(doc(&h).path.is_none());
}

#[test]
fn a_chosen_skeleton_offers_its_bones_for_the_mask_and_is_remembered() {
    let graph = scratch_copy("skeleton");
    let settings_file = graph.with_file_name("settings.json");
    let (settings, _) = Settings::load(Some(settings_file.clone()));
    let mut h = harness(Editor::new(vec![graph.clone()], settings));
    let skeleton = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/gbot/gbot.mskel");
    let field = h.get(By::new().label("Skeleton path").role(Role::TextInput));
    field.focus();
    field.type_text(skeleton.to_str().unwrap());
    h.run_steps(1);
    h.get_by_label("Load skeleton").click();
    h.run_steps(3);
    assert!(h.state().tabs[0].character.is_some(), "{}", doc(&h).status);
    // The UpperBody layer's mask: its bones are ticked in the skeleton's hierarchy.
    h.get_by_label("UpperBody").click();
    h.run_steps(3);
    let before = doc(&h).graph.layers[1].mask.clone().unwrap();
    assert!(before.bones.iter().any(|b| b == "LeftArm"));
    h.get_by_label("RightArm").click();
    h.run_steps(3);
    let after = doc(&h).graph.layers[1].mask.clone().unwrap();
    assert!(after.bones.iter().any(|b| b == "RightArm"), "{after:?}");
    // The choice is in the editor's settings, not the graph.
    let (reloaded, _) = Settings::load(Some(settings_file));
    assert!(reloaded.skeleton_for(&graph).is_some());
}

#[test]
fn a_clip_library_adds_its_clips_to_a_gltf_skeleton_and_is_remembered() {
    let graph = scratch_copy("library");
    let settings_file = graph.with_file_name("library-settings.json");
    let (settings, _) = Settings::load(Some(settings_file.clone()));
    let mut h = harness(Editor::new(vec![graph.clone()], settings));
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/mannequiny");
    let type_path = |h: &mut Harness<'_, Editor>, path: &std::path::Path| {
        h.state_mut().skeleton_field.clear();
        let field = h.get(By::new().label("Skeleton path").role(Role::TextInput));
        field.focus();
        field.type_text(path.to_str().unwrap());
        h.run_steps(1);
    };
    type_path(&mut h, &folder.join("mannequiny.glb"));
    h.get_by_label("Load skeleton").click();
    h.run_steps(3);
    assert_eq!(h.state().tabs[0].character.as_ref().map(|c| c.clips.len()), Some(0), "{}", doc(&h).status);
    type_path(&mut h, &folder.join("mannequiny_clips.glb"));
    h.get_by_label("Add clips").click();
    h.run_steps(3);
    let character = h.state().tabs[0].character.clone().unwrap();
    assert_eq!(character.clips.len(), 10, "{}", doc(&h).status);
    assert!(character.clips.iter().any(|c| c.name == "run_root.001"));
    assert!(
        doc(&h).status.contains("clip library mannequiny_clips.glb: 10 clips added"),
        "{}",
        doc(&h).status
    );
    // Remembered for the skeleton: loading it again brings the library's clips.
    let (reloaded, _) = Settings::load(Some(settings_file));
    assert_eq!(reloaded.libraries_for(&folder.join("mannequiny.glb")).len(), 1);
    // A library of another rig leaves the skeleton as it was, with the reason.
    type_path(&mut h, &folder.join("../fox/Fox.glb"));
    h.get_by_label("Add clips").click();
    h.run_steps(3);
    assert_eq!(h.state().tabs[0].character.as_ref().unwrap().clips.len(), 10);
    assert!(doc(&h).status.contains("none of its 24 joints"), "{}", doc(&h).status);
    h.get_by_label("Remove clip libraries (1)").click();
    h.run_steps(3);
    assert_eq!(h.state().tabs[0].character.as_ref().unwrap().clips.len(), 0);
}

#[test]
fn a_blend_spaces_editor_opens_from_its_menu_and_the_plot_sets_the_parameter() {
    let mut h = open(scratch_copy("blend"));
    // (kittest's synthetic clicks do not make a double-click; the state's menu opens it too.)
    let state = h.get_by_label("Move (1D blend space)").rect().center();
    right_click(&mut h, state);
    h.get_by_label("Edit blend space").click();
    h.run_steps(4);
    assert!(h.state().tabs[0].blend_editor.is_some(), "the menu did not open the editor");
    h.get_by_label_contains("Blend space: Move");
    let plot = h.get_by_label("Blend space plot").rect();
    // Docked: it does not cover the canvas.
    let canvas = h.get_by_label("Graph canvas").rect();
    assert!(!canvas.intersects(plot), "the blend space editor covers the canvas: {canvas:?} {plot:?}");
    let before = h.state().tabs[0].live.values["speed"];
    // Clicking right of centre moves the preview point: speed goes up.
    let at = Pos2::new(plot.right() - 60.0, plot.center().y);
    h.hover_at(at);
    h.run_steps(1);
    button(&h, at, PointerButton::Primary, true);
    button(&h, at, PointerButton::Primary, false);
    h.run_steps(3);
    let after = h.state().tabs[0].live.values["speed"];
    assert!(after > before + 0.5, "speed {before} -> {after}");
    // Not an edit of the graph.
    assert!(!doc(&h).dirty());
    // Close puts it away.
    h.get_by_label("Close").click();
    h.run_steps(3);
    assert!(h.state().tabs[0].blend_editor.is_none());
}

#[test]
fn motion_quality_fields_are_edited_in_the_inspector_and_undo() {
    use animgraph_runtime::graph::{TransitionBlend, TransitionSync};
    let mut h = open(scratch_copy("motion"));
    let index = transition_index(&h, "Move", "Air");
    h.state_mut().tabs[0].doc.selection = Selection::Transition(index);
    h.run_steps(3);
    pick(&mut h, "Crossfade", 0, "Inertial");
    assert_eq!(doc(&h).machine().unwrap().transitions[index].blend, TransitionBlend::Inertial);
    // Interrupt shows None too: Sync is the second.
    pick(&mut h, "None", 1, "Markers");
    assert_eq!(doc(&h).machine().unwrap().transitions[index].sync, TransitionSync::Markers);
    h.state_mut().tabs[0].doc.undo();
    h.run_steps(2);
    assert_eq!(doc(&h).machine().unwrap().transitions[index].sync, TransitionSync::None);
    // A state's windows: Hurt has `invulnerable`; add one.
    let hurt = doc(&h).machine().unwrap().states.iter().position(|s| s.name == "Hurt").unwrap();
    h.state_mut().tabs[0].doc.selection = Selection::States(vec![hurt]);
    h.run_steps(3);
    h.get_by_label("+ Window").click();
    h.run_steps(3);
    let windows = &doc(&h).machine().unwrap().states[hurt].windows;
    assert_eq!(windows.iter().map(|w| w.name.as_str()).collect::<Vec<_>>(), ["invulnerable", "window1"]);
    assert!(animgraph_runtime::graph::validate(&doc(&h).graph).is_empty());
}

/// The status line: a failed open's message goes once a graph opens; an undone rename is not
/// still reported; a save is confirmed; the tab's `*` goes when the edits are undone back to
/// the saved graph.
#[test]
fn the_status_line_and_the_dirty_marker_follow_what_happened() {
    let copy = scratch_copy("status");
    let mut h = harness(Editor::new(vec![copy.with_file_name("missing.mres")], Settings::default()));
    let failed = h.state().status_line();
    assert!(failed.contains("missing.mres"), "{failed}");
    h.state_mut().open(copy.clone());
    h.run_steps(2);
    let opened = h.state().status_line();
    assert!(opened.starts_with("opened "), "{opened}");
    h.get_by_label(&opened);
    let a = h.state().active;
    let state = doc(&h).machine().unwrap().states[0].name.clone();
    h.state_mut().tabs[a].doc.rename_state(0, "Renamed").unwrap();
    h.run_steps(2);
    h.get_by_label("gbot.mres *");
    h.state_mut().tabs[a].doc.undo();
    h.run_steps(2);
    let undone = h.state().status_line();
    assert!(!undone.contains("Renamed") && undone.starts_with("undone"), "{undone}");
    assert_eq!(doc(&h).machine().unwrap().states[0].name, state);
    h.get_by_label("gbot.mres");
    assert!(!doc(&h).dirty(), "undone back to the opened graph");
    h.state_mut().tabs[a].doc.rename_state(0, "Saved").unwrap();
    h.state_mut().save();
    h.run_steps(2);
    let saved = h.state().status_line();
    assert!(saved.starts_with("saved "), "{saved}");
    h.get_by_label(&saved);
    let _ = std::fs::remove_dir_all(copy.parent().unwrap());
}

/// With "Include children", the bone list shows which bones the mask takes in through a ticked
/// ancestor.
#[test]
fn bones_in_the_mask_through_an_ancestor_say_so() {
    let copy = scratch_copy("mask");
    let assets = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/gbot");
    std::fs::copy(assets.join("gbot.mskel"), copy.with_extension("mskel")).unwrap();
    let mut h = open(copy.clone());
    assert!(h.state().tabs[0].character.is_some(), "the skeleton beside the graph loaded");
    h.state_mut().tabs[0].doc.layer = 1; // UpperBody: its mask ticks LeftArm
    h.state_mut().tabs[0].doc.edit_graph(|g| g.layers[1].mask.as_mut().unwrap().include_children = false);
    h.run_steps(3);
    assert_eq!(h.query_all_by_label("included with LeftArm").count(), 0, "children not included");
    h.state_mut().tabs[0].doc.edit_graph(|g| g.layers[1].mask.as_mut().unwrap().include_children = true);
    h.run_steps(3);
    // LeftForearm and LeftHand, through LeftArm.
    assert_eq!(h.query_all_by_label("included with LeftArm").count(), 2);
    let _ = std::fs::remove_dir_all(copy.parent().unwrap());
}

/// Two tabs of files with the same name say which folder each is in.
#[test]
fn tabs_of_files_with_the_same_name_show_their_folders() {
    let first = scratch_copy("same-name-a");
    let second = scratch_copy("same-name-b");
    let mut h = open(first.clone());
    h.state_mut().open(second.clone());
    h.run_steps(3);
    let folder = |p: &PathBuf| p.parent().unwrap().file_name().unwrap().to_string_lossy().into_owned();
    h.get_by_label(&format!("gbot.mres ({})", folder(&first)));
    h.get_by_label(&format!("gbot.mres ({})", folder(&second)));
    // Alone again, the plain name.
    h.state_mut().close(1);
    h.run_steps(3);
    h.get_by_label("gbot.mres");
    for p in [first, second] {
        let _ = std::fs::remove_dir_all(p.parent().unwrap());
    }
}

/// Every field of the inspector explains itself on hover: a transition's, a clip state's (with
/// its windows), the layer's and the graph's.
#[test]
fn inspector_fields_explain_themselves() {
    let mut h = open(scratch_copy("help"));
    // (the label shown, the help's key when the short label means different things in places)
    let check = |h: &mut Harness<'_, Editor>, fields: &[&str]| {
        for field in fields {
            let (field, key) = field.split_once('=').unwrap_or((field, field));
            let help = crate::inspector::field_help(key).unwrap_or_else(|| panic!("{key}: no help text"));
            let at = h
                .get_all_by_label(field)
                .next()
                .unwrap_or_else(|| panic!("{field}: not shown"))
                .rect()
                .center();
            h.hover_at(at);
            h.run_steps(12); // tooltips show after a short rest
            assert!(h.query_by_label(help).is_some(), "{field}: no tooltip");
            h.hover_at(Pos2::new(5.0, 5.0));
            h.run_steps(3);
        }
    };
    h.state_mut().tabs[0].doc.selection = Selection::Transition(0);
    h.run_steps(3);
    check(
        &mut h,
        &["From", "To", "Duration", "Exit time", "Offset", "Interrupt", "Curve", "Blend", "Sync", "Priority"],
    );
    let hurt = doc(&h).machine().unwrap().states.iter().position(|s| s.name == "Hurt").unwrap();
    h.state_mut().tabs[0].doc.selection = Selection::States(vec![hurt]);
    h.run_steps(3);
    check(
        &mut h,
        &[
            "Name",
            "Speed",
            "Speed parameter",
            "Clip",
            "Loop",
            "window name",
            "from=window from",
            "to=window to",
        ],
    );
    h.state_mut().tabs[0].doc.selection = Selection::None;
    h.run_steps(3);
    check(&mut h, &["Weight", "Bone mask", "Default mix", "from=mix from", "to=mix to", "s=mix seconds"]);
}

/// Escape in a text field cancels the edit; Enter commits it.
#[test]
fn escape_cancels_a_text_edit() {
    let mut h = open(scratch_copy("escape"));
    let field = || By::new().value("Base").role(Role::TextInput);
    retype_then(&mut h, field(), "Typo", egui::Key::Escape);
    assert_eq!(doc(&h).graph.layers[0].name, "Base", "Escape committed the edit");
    assert!(!doc(&h).dirty());
    retype_then(&mut h, field(), "Ground", egui::Key::Enter);
    assert_eq!(doc(&h).graph.layers[0].name, "Ground");
}

/// Attached to a game character from one tab, another tab (a different graph) says where the
/// attachment is instead of both "attached" and "none of its characters plays this graph".
#[test]
fn other_tabs_name_the_attachment_elsewhere() {
    let assets = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let locomotion = animgraph_runtime::mres::load_file(assets.join("graphs/locomotion.mres")).unwrap().graph;
    let mut backend = animgraph_runtime::script::RecordingBackend::with_clips(&[
        ("idle", 1.0, true),
        ("walk", 1.0, true),
        ("run", 1.0, true),
        ("jump", 0.5, false),
    ]);
    let player = animgraph_runtime::AnimationGraphPlayer::bind(&locomotion, &mut backend).unwrap();
    let server = animgraph_runtime::link::LinkServer::bind(([127, 0, 0, 1], 0).into(), "test game").unwrap();
    let id = server.register("Runner", &player, &locomotion.uid, None);
    let mut h = harness(Editor::new(
        vec![assets.join("graphs/locomotion.mres"), scratch_copy("other-tab")],
        Settings::default(),
    ));
    h.state_mut().debugger.address = server.local_addr().to_string();
    h.state_mut().debugger.connect();
    let begin = std::time::Instant::now();
    while h.state().debugger.instances.is_empty() {
        assert!(begin.elapsed() < std::time::Duration::from_secs(20), "no instances");
        server.publish(id, &player);
        h.run_steps(1);
    }
    h.state_mut().active = 0;
    h.state_mut().debugger.attach(id);
    while h.state().debugger.attached.is_none() {
        assert!(begin.elapsed() < std::time::Duration::from_secs(20), "never attached");
        server.publish(id, &player);
        h.run_steps(1);
    }
    h.state_mut().active = 1; // the GBot graph
    h.run_steps(3);
    let elsewhere = format!("attached to Runner in another tab's graph ({})", locomotion.uid);
    h.get_by_label(&elsewhere);
    assert!(h.query_by_label_contains("None of its").is_none());
}

/// Ctrl+C on the canvas copies the selected states; Ctrl+V in another tab pastes them there.
#[test]
fn copy_in_one_tab_and_paste_in_another() {
    let assets = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    let mut h = harness(Editor::new(
        vec![scratch_copy("paste-from"), assets.join("graphs/locomotion.mres")],
        Settings::default(),
    ));
    h.state_mut().active = 0;
    let hurt = doc(&h).machine().unwrap().states.iter().position(|s| s.name == "Hurt").unwrap();
    h.state_mut().tabs[0].doc.selection = Selection::States(vec![hurt]);
    h.run_steps(2);
    let centre = canvas_centre(&h);
    h.hover_at(centre);
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::C);
    h.run_steps(2);
    assert!(doc(&h).status.starts_with("copied 1"), "{}", doc(&h).status);
    h.state_mut().active = 1;
    h.run_steps(2);
    let before = doc(&h).machine().unwrap().states.len();
    h.hover_at(canvas_centre(&h));
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, egui::Key::V);
    h.run_steps(2);
    let machine = doc(&h).machine().unwrap();
    assert_eq!(machine.states.len(), before + 1);
    assert!(machine.state("Hurt").is_some());
    assert!(
        doc(&h).graph.parameter("hurt").is_none(),
        "Hurt's transitions were not copied, so no parameter came"
    );
    h.state_mut().tabs[1].doc.undo();
    assert_eq!(doc(&h).machine().unwrap().states.len(), before);
}

/// Autosave writes a recovery file for a tab with unsaved edits and removes it once saved.
#[test]
fn autosave_keeps_unsaved_edits_until_saved() {
    let copy = scratch_copy("autosave");
    let dir = copy.parent().unwrap().join("recovery");
    let mut editor = Editor::new(vec![copy.clone()], Settings::default());
    editor.use_recovery(crate::recovery::Recovery::new(dir.clone(), std::time::Duration::ZERO));
    let files = || std::fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0);
    editor.autosave(std::time::Instant::now());
    assert_eq!(files(), 0, "nothing unsaved yet");
    editor.tabs[0].doc.edit_graph(|g| g.layers[0].name = "Autosaved".into());
    editor.autosave(std::time::Instant::now());
    assert_eq!(files(), 1);
    let file = std::fs::read_dir(&dir).unwrap().next().unwrap().unwrap().path();
    let recovered = crate::recovery::recover(&file).unwrap();
    assert_eq!(recovered.graph.layers[0].name, "Autosaved");
    assert_eq!(recovered.path.as_deref(), Some(copy.as_path()));
    assert!(recovered.dirty());
    editor.tabs[0].doc.save().unwrap();
    editor.autosave(std::time::Instant::now());
    assert_eq!(files(), 0, "saved: the recovery file goes");
    let _ = std::fs::remove_dir_all(copy.parent().unwrap());
}

/// Recovery files a crashed session left are offered at start; Recover opens them as unsaved
/// tabs of their original files and deletes the files.
#[test]
fn a_crashed_sessions_edits_are_offered_and_recovered() {
    let copy = scratch_copy("recover");
    let dir = copy.parent().unwrap().join("recovery");
    std::fs::create_dir_all(&dir).unwrap();
    let mut graph = Document::open(copy.clone()).unwrap().graph;
    graph.layers[0].name = "Unsaved".into();
    let leftover = crate::recovery::Recovered {
        original: Some(copy.clone()),
        mres: animgraph_runtime::mres::save_to_string(&graph),
    };
    // Process id 4294967295 is never running.
    let file = dir.join("4294967295-7.json");
    std::fs::write(&file, serde_json::to_string(&leftover).unwrap()).unwrap();
    let mut editor = Editor::new(vec![copy.clone()], Settings::default());
    editor.use_recovery(crate::recovery::Recovery::new(dir.clone(), std::time::Duration::ZERO));
    assert_eq!(editor.recoverable, std::slice::from_ref(&file));
    let mut h = harness(editor);
    h.get_by_label("Recover").click();
    h.run_steps(3);
    let active = h.state().active;
    let tab = &h.state().tabs[active].doc;
    assert_eq!(tab.graph.layers[0].name, "Unsaved");
    assert_eq!(tab.path.as_deref(), Some(copy.as_path()));
    assert!(tab.dirty(), "recovered edits are unsaved");
    assert!(!file.exists(), "the leftover is gone");
    assert!(h.query_by_label("Recover unsaved work").is_none());
    let _ = std::fs::remove_dir_all(copy.parent().unwrap());
}

/// When the attached game quits, its recording stays on the timeline (to scrub its last
/// moments) instead of restarting with the editor's own preview.
#[test]
fn a_quit_games_last_moments_stay_on_the_timeline() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/graphs/locomotion.mres");
    let graph = animgraph_runtime::mres::load_file(&path).unwrap().graph;
    let mut backend = animgraph_runtime::script::RecordingBackend::with_clips(&[
        ("idle", 1.0, true),
        ("walk", 1.0, true),
        ("run", 1.0, true),
        ("jump", 0.5, false),
    ]);
    let mut player = animgraph_runtime::AnimationGraphPlayer::bind(&graph, &mut backend).unwrap();
    let mut buffer = player.new_buffer();
    let server = animgraph_runtime::link::LinkServer::bind(([127, 0, 0, 1], 0).into(), "game").unwrap();
    let id = server.register("Runner", &player, &graph.uid, None);
    let mut h = harness(Editor::new(vec![path], Settings::default()));
    h.state_mut().debugger.address = server.local_addr().to_string();
    h.state_mut().debugger.connect();
    let begin = std::time::Instant::now();
    let mut tick = |h: &mut Harness<'_, Editor>| {
        assert!(begin.elapsed() < std::time::Duration::from_secs(20), "timed out");
        player.advance(1.0 / 60.0, &mut buffer);
        server.publish(id, &player);
        h.run_steps(1);
        std::thread::sleep(std::time::Duration::from_millis(3));
    };
    while h.state().debugger.instances.is_empty() {
        tick(&mut h);
    }
    h.state_mut().debugger.attach(id);
    while h.state().tabs[0].timeline.recording.len() < 20 || !h.state().tabs[0].timeline.is_game() {
        tick(&mut h);
    }
    drop(server);
    while !h.state().debugger.awaiting() {
        assert!(begin.elapsed() < std::time::Duration::from_secs(20), "the editor never saw the game go");
        h.run_steps(1);
        std::thread::sleep(std::time::Duration::from_millis(3));
    }
    let kept = h.state().tabs[0].timeline.recording.len();
    for _ in 0..30 {
        h.run_steps(1); // the preview keeps playing meanwhile
    }
    let timeline = &h.state().tabs[0].timeline;
    assert!(timeline.is_game(), "the game's recording was replaced");
    assert_eq!(timeline.recording.len(), kept, "preview frames were recorded over the game's");
    assert!(kept >= 20);
}

/// Find: typing a name and pressing Enter shows that state wherever it is (here inside the Air
/// sub-machine), Enter again the next match; a parameter's name says where it is used.
#[test]
fn find_shows_states_in_sub_machines_and_where_parameters_are_used() {
    let mut h = open(scratch_copy("find"));
    let find = |h: &mut Harness<'_, Editor>, text: &str| {
        retype(h, By::new().label("Find").role(Role::TextInput), text);
    };
    find(&mut h, "fall");
    let d = doc(&h);
    assert_eq!((d.layer, d.nesting.clone()), (0, vec![1]), "inside Air");
    let fall = d.machine().unwrap().states.iter().position(|s| s.name == "Fall").unwrap();
    assert_eq!(d.selection, Selection::state(fall));
    assert!(d.status.starts_with("Base/Air/Fall (1 of 1"), "{}", d.status);
    // "a" matches several states: Enter walks through them.
    find(&mut h, "a");
    let first = doc(&h).status.clone();
    h.get(By::new().label("Find").role(Role::TextInput)).focus();
    h.run_steps(1);
    h.key_press(egui::Key::Enter);
    h.run_steps(3);
    assert_ne!(doc(&h).status, first, "Enter shows the next match");
    assert!(doc(&h).status.contains("2 of"), "{}", doc(&h).status);
    find(&mut h, "grounded");
    assert!(doc(&h).status.starts_with("parameter grounded is used by"), "{}", doc(&h).status);
}

/// "Make transition" in a state's menu, then a click on the target, adds the transition;
/// Escape cancels it.
#[test]
fn make_transition_from_the_menu() {
    let mut h = open(scratch_copy("make-transition"));
    let centre_of = |h: &Harness<'_, Editor>, label: &str| h.get_by_label(label).rect().center();
    let click = |h: &mut Harness<'_, Editor>, at: Pos2| {
        h.hover_at(at);
        h.run_steps(1);
        button(h, at, PointerButton::Primary, true);
        h.run_steps(1);
        button(h, at, PointerButton::Primary, false);
        h.run_steps(3);
    };
    let count = |h: &Harness<'_, Editor>, from: &str, to: &str| {
        doc(h).machine().unwrap().transitions.iter().filter(|t| t.from == from && t.to == to).count()
    };
    assert_eq!(count(&h, "Hurt", "Air"), 0);
    let hurt = centre_of(&h, "Hurt (clip)");
    right_click(&mut h, hurt);
    h.get_by_label("Make transition").click();
    h.run_steps(3);
    let air = centre_of(&h, "Air (sub-machine)");
    click(&mut h, air);
    assert_eq!(count(&h, "Hurt", "Air"), 1, "{}", doc(&h).status);
    // Escape cancels.
    let moving = centre_of(&h, "Move (1D blend space)");
    right_click(&mut h, moving);
    h.get_by_label("Make transition").click();
    h.run_steps(3);
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    let before = count(&h, "Move", "Hurt");
    click(&mut h, hurt);
    assert_eq!(count(&h, "Move", "Hurt"), before, "Escape did not cancel");
}

/// Play runs the game command with ANIMGRAPH_LINK set and reports when it exits; once a game
/// lists a character of the wanted graph, the editor attaches to it by itself.
#[test]
fn play_starts_the_game_and_attaches_to_its_character() {
    let mut debugger = crate::debug::Debugger::default();
    debugger.address = "127.0.0.1:1".into();
    debugger.command = "test \"$ANIMGRAPH_LINK\" = 127.0.0.1:1 && exit 3".into();
    debugger.play("res_locomotion");
    assert!(debugger.playing());
    let begin = std::time::Instant::now();
    while debugger.playing() {
        assert!(begin.elapsed() < std::time::Duration::from_secs(20), "the command never ended");
        debugger.poll();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(debugger.status.contains("exited") && debugger.status.contains('3'), "{}", debugger.status);
    // The attach half, against an in-process game.
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/graphs/locomotion.mres");
    let graph = animgraph_runtime::mres::load_file(&path).unwrap().graph;
    let mut backend = animgraph_runtime::script::RecordingBackend::with_clips(&[("idle", 1.0, true)]);
    let player = animgraph_runtime::AnimationGraphPlayer::bind(&graph, &mut backend).unwrap();
    let server = animgraph_runtime::link::LinkServer::bind(([127, 0, 0, 1], 0).into(), "game").unwrap();
    server.register("Other graph", &player, "res_something_else", None);
    server.register("Runner", &player, &graph.uid, None);
    let mut debugger = crate::debug::Debugger::default();
    debugger.address = server.local_addr().to_string();
    debugger.auto_attach = Some(graph.uid.clone());
    debugger.connect();
    while debugger.attached.is_none() {
        assert!(begin.elapsed() < std::time::Duration::from_secs(20), "never attached: {}", debugger.status);
        debugger.poll();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(debugger.attached.as_ref().unwrap().name, "Runner");
}

/// While scrubbing (with "Back to live" shown) the timeline's row still fits the window.
#[test]
fn the_timeline_row_fits_while_scrubbing() {
    let mut h = open(scratch_copy("scrub"));
    for _ in 0..40 {
        h.state_mut().tabs[0].live.step_one_frame();
        h.run_steps(1);
    }
    assert!(h.state().tabs[0].timeline.recording.len() > 10);
    let right = |h: &Harness<'_, Editor>| h.get_by_label("Open recording").rect().right();
    assert!(right(&h) <= 1280.0, "live: {}", right(&h));
    let tab = &mut h.state_mut().tabs[0];
    tab.timeline.scrub_to(5, &mut tab.live);
    h.run_steps(3);
    h.get_by_label("Back to live");
    assert!(right(&h) <= 1280.0, "scrubbing: the row overflows to {}", right(&h));
}

/// Dragging a clip from the skeleton's clip list onto the canvas makes a clip state playing it
/// where it was dropped (one undo step).
#[test]
fn a_clip_dragged_onto_the_canvas_becomes_a_state() {
    let copy = scratch_copy("clip-drop");
    let assets = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/gbot");
    std::fs::copy(assets.join("gbot.mskel"), copy.with_extension("mskel")).unwrap();
    let mut h = open(copy.clone());
    let before = doc(&h).machine().unwrap().states.len();
    let source = h
        .get_all(By::new().label_contains("land  ("))
        .next()
        .expect("the clip list shows the skeleton's clips")
        .rect()
        .center();
    let canvas = h.get_by_label("Graph canvas").rect();
    let target = canvas.left_bottom() + vec2(90.0, -60.0);
    drag(&mut h, source, target);
    let m = doc(&h).machine().unwrap();
    assert_eq!(m.states.len(), before + 1, "{}", doc(&h).status);
    let added = m.states.last().unwrap();
    assert!(matches!(&added.kind, animgraph_runtime::graph::StateKind::Clip(c) if c.clip == "land"));
    assert_eq!(added.name, "land");
    let rect = h.get_by_label("land (clip)").rect();
    assert!(rect.contains(target), "dropped at {target:?}, drawn at {rect:?}");
    h.state_mut().tabs[0].doc.undo();
    assert_eq!(doc(&h).machine().unwrap().states.len(), before);
    let _ = std::fs::remove_dir_all(copy.parent().unwrap());
}

/// The layer's fields explain themselves too, and the layer's blend is not described as a
/// transition's.
#[test]
fn layer_fields_explain_themselves() {
    let mut h = open(scratch_copy("layer-help"));
    h.state_mut().tabs[0].doc.selection = Selection::None;
    h.run_steps(3);
    for field in ["Layer blend", "Weight parameter", "Travel mode"] {
        let help = crate::inspector::field_help(field).unwrap();
        let at = h.get_by_label(field).rect().center();
        h.hover_at(at);
        h.run_steps(12);
        assert!(h.query_by_label(help).is_some(), "{field}: no tooltip");
        h.hover_at(Pos2::new(5.0, 5.0));
        h.run_steps(3);
    }
    assert_ne!(crate::inspector::field_help("Layer blend"), crate::inspector::field_help("Blend"));
}

/// Attached to a game that streams its samples, the preview shows the game's character posed as
/// the game posed it (bit for bit, frame after frame, through a jump), and the editor's own
/// player waits meanwhile.
#[test]
fn attached_preview_is_posed_from_the_games_samples() {
    let gbot = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/gbot");
    let character = animgraph_character::Character::load(&gbot.join("gbot.mskel"), None).unwrap().character;
    let graph = animgraph_runtime::mres::load_file(gbot.join("gbot.mres")).unwrap().graph;
    let mut game = animgraph_character::CharacterInstance::new(&character, &graph).unwrap();
    let server = animgraph_runtime::link::LinkServer::bind(([127, 0, 0, 1], 0).into(), "game").unwrap();
    let id = server.register("GBot", game.player(), &graph.uid, None);
    let mut h = harness(Editor::new(vec![gbot.join("gbot.mres")], Settings::default()));
    h.state_mut().debugger.address = server.local_addr().to_string();
    h.state_mut().debugger.connect();
    let begin = std::time::Instant::now();
    let wait = |h: &mut Harness<'_, Editor>,
                what: &str,
                done: &dyn Fn(&Editor) -> bool,
                game: &CharacterInstance| {
        while !done(h.state()) {
            assert!(begin.elapsed() < std::time::Duration::from_secs(30), "timed out waiting for {what}");
            server.publish_posed(id, game.player(), game.buffer(), game.names());
            h.run_steps(1);
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    };
    use animgraph_character::CharacterInstance;
    wait(&mut h, "instances", &|e| !e.debugger.instances.is_empty(), &game);
    h.state_mut().debugger.attach(id);
    wait(&mut h, "attaching", &|e| e.debugger.attached.is_some(), &game);
    let own_tick = h.state().tabs[0].live.player().unwrap().tick();
    game.player_mut().set_float_by_name("speed", 2.0).unwrap();
    let mut compared = 0;
    for frame in 0..90 {
        if frame == 30 {
            game.player_mut().fire_by_name("jump").unwrap();
        }
        game.update(1.0 / 60.0);
        let tick = game.player().tick();
        wait(&mut h, "the frame", &|e| e.tabs[0].game_tick == Some(tick), &game);
        assert_eq!(
            h.state().tabs[0].live.local_pose(),
            game.local_pose(),
            "frame {frame}: the preview differs"
        );
        compared += 1;
    }
    assert_eq!(compared, 90);
    assert_eq!(h.state().tabs[0].live.player().unwrap().tick(), own_tick, "the editor's own player ran");
    h.get_by_label("Preview (the game's character, live)");
    assert!(
        h.state().tabs[0].timeline.recording.frames().iter().any(|f| !f.samples.is_empty()),
        "game frames are recorded with their samples"
    );
}

/// The transition timeline: dragging the target bar moves the exit time, the mix's end sets the
/// duration, the target's start sets the offset; each drag is one undo step, and the other
/// values stay as they were.
#[test]
fn transition_timeline_drags_edit_exit_time_duration_and_offset() {
    let mut h = open(scratch_copy("transition-timeline"));
    let index = transition_index(&h, "Move", "Air");
    h.state_mut().tabs[0].doc.edit_machine(|m| {
        let t = &mut m.transitions[index];
        (t.exit_time, t.duration, t.offset) = (0.5, 0.25, 0.0);
    });
    h.state_mut().tabs[0].doc.selection = Selection::Transition(index);
    h.run_steps(3);
    let t = |h: &Harness<'_, Editor>| {
        let t = &doc(h).machine().unwrap().transitions[index];
        (t.exit_time, t.duration, t.offset)
    };
    // Right by 40 px: later exit, the rest unchanged.
    let exit = h.get_by_label("Exit time handle").rect().center();
    drag(&mut h, exit, exit + vec2(40.0, 0.0));
    let (e, d, o) = t(&h);
    assert!(e > 0.55, "exit time {e} did not move later");
    assert_eq!((d, o), (0.25, 0.0));
    // The mix's end, right: a longer mix.
    let mix = h.get_by_label("Duration handle").rect().center();
    drag(&mut h, mix, mix + vec2(30.0, 0.0));
    let (e2, d2, o2) = t(&h);
    assert!(d2 > 0.3, "duration {d2} did not grow");
    assert_eq!((e2, o2), (e, 0.0));
    // The target's start, left: it starts further into its clip.
    let offset = h.get_by_label("Offset handle").rect().center();
    drag(&mut h, offset, offset - vec2(25.0, 0.0));
    let (e3, d3, o3) = t(&h);
    assert!(o3 > 0.05 && o3 <= 1.0, "offset {o3}");
    assert_eq!((e3, d3), (e, d2));
    // One undo per drag.
    h.get_by_label("Undo").click();
    h.run_steps(2);
    assert_eq!(t(&h), (e, d2, 0.0));
    h.get_by_label("Undo").click();
    h.run_steps(2);
    assert_eq!(t(&h), (e, 0.25, 0.0));
}
