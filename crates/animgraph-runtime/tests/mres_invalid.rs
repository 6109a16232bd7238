//! One test per invalid `.mres` input, each asserting the exact location and the message.

use animgraph_runtime::mres::{self, Diagnostic, MresError};

const BASE: &str = r#"{
  "format": 2,
  "uid": "res_test",
  "type": "AnimationGraph",
  "resources": {
    "p_speed": { "type": "GraphParameter", "props": { "Name": "speed", "Type": "Float" } },
    "p_grounded": { "type": "GraphParameter", "props": { "Name": "grounded", "Type": "Bool" } },
    "p_jump": { "type": "GraphParameter", "props": { "Name": "jump", "Type": "Trigger" } },
    "s_move": { "type": "BlendSpace1DState", "props": { "Name": "Move", "Parameter": "speed", "Clips": ["idle", "walk", "run"], "Positions": [0, 1.5, 4] } },
    "s_jump": { "type": "ClipState", "props": { "Name": "Jump", "Clip": "jump", "Loop": false } },
    "s_aim": { "type": "BlendSpace2DState", "props": { "Name": "Aim", "ParameterX": "speed", "ParameterY": "speed", "Clips": ["a", "b", "c"], "Positions": [[0, 0], [1, 0], [0, 1]] } },
    "c_jump": { "type": "GraphCondition", "props": { "Parameter": "jump", "Op": "Triggered" } },
    "t_jump": { "type": "GraphTransition", "props": { "From": "*", "To": "Jump", "Duration": 0.1, "Conditions": [ { "res": "c_jump" } ] } },
    "t_land": { "type": "GraphTransition", "props": { "From": "Jump", "To": "Move", "ExitTime": 0.9 } },
    "m_base": { "type": "GraphMachine", "props": { "Entry": "Move", "States": [ { "res": "s_move" }, { "res": "s_jump" }, { "res": "s_aim" } ], "Transitions": [ { "res": "t_jump" }, { "res": "t_land" } ] } },
    "l_base": { "type": "GraphLayer", "props": { "Name": "Base", "Machine": { "res": "m_base" } } }
  },
  "props": { "Parameters": [ { "res": "p_speed" }, { "res": "p_grounded" }, { "res": "p_jump" } ], "Layers": [ { "res": "l_base" } ] }
}
"#;

/// BASE with `from` replaced by `to` (which must occur).
fn edit(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "test bug: {from:?} not in BASE");
    BASE.replacen(from, to, 1)
}

fn diagnostics(text: &str) -> Vec<Diagnostic> {
    match mres::load_str(text) {
        Ok(_) => panic!("expected the file to be invalid"),
        Err(MresError::Invalid(d)) => d,
        Err(e) => panic!("unexpected error {e}"),
    }
}

/// Asserts exactly one error, at `location`, whose message contains `message`; returns it.
fn one_error(text: &str, location: &str, message: &str) -> Diagnostic {
    let all = diagnostics(text);
    let errors: Vec<&Diagnostic> = all.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "expected one error, got: {all:#?}");
    let e = errors[0].clone();
    assert_eq!(e.location(), location, "{e}");
    assert!(e.message.contains(message), "message {:?} lacks {message:?}", e.message);
    e
}

#[test]
fn base_file_is_valid() {
    let loaded = mres::load_str(BASE).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
}

#[test]
fn malformed_json_names_line_and_column() {
    let text = edit(r#""Name": "Jump","#, r#""Name": "Jump""#);
    let e = one_error(&text, "", "malformed JSON");
    assert_eq!(e.line, Some(10));
    assert!(e.column.is_some());
    assert!(e.to_string().contains("line 10, column"), "{e}");
}

#[test]
fn wrong_format_version_says_which_is_supported() {
    one_error(
        &edit(r#""format": 2"#, r#""format": 3"#),
        "format",
        "format 3 is not supported; this version reads format 2",
    );
}

#[test]
fn missing_format_is_an_error() {
    one_error(&edit("\"format\": 2,", ""), "format", "is missing; add \"format\": 2");
}

#[test]
fn wrong_root_type_is_an_error() {
    one_error(
        &edit(r#""type": "AnimationGraph""#, r#""type": "Skeleton2DData""#),
        "type",
        "reads \"AnimationGraph\"",
    );
}

#[test]
fn unknown_type_is_an_error() {
    let e = one_error(
        &edit(r#""type": "ClipState""#, r#""type": "ClipStat""#),
        "s_jump.type",
        "unknown type \"ClipStat\"",
    );
    assert_eq!(e.line, Some(10));
}

#[test]
fn wrong_type_in_place_is_an_error() {
    let all = diagnostics(&edit(r#"{ "res": "s_jump" }"#, r#"{ "res": "p_speed" }"#));
    let errors: Vec<&Diagnostic> = all.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors[0].location(), "m_base.States[1]");
    assert!(errors[0].message.contains(
        "expected ClipState or BlendSpace1DState or BlendSpace2DState or SubMachineState here, found a GraphParameter"
    ));
    // Jump is really gone from the machine now, so both transitions naming it are wrong too.
    let rest: Vec<String> = errors[1..].iter().map(|d| d.location()).collect();
    assert_eq!(rest, ["t_jump.To", "t_land.From"]);
}

#[test]
fn unknown_enum_value_lists_the_valid_ones() {
    one_error(
        &edit(r#""Op": "Triggered""#, r#""Op": "Fired""#),
        "c_jump.Op",
        "unknown value \"Fired\"; use one of True, False, Greater, Less, Equal, NotEqual, Triggered",
    );
    one_error(
        &edit(r#""Duration": 0.1,"#, r#""Duration": 0.1, "Curve": "Bouncy","#),
        "t_jump.Curve",
        "unknown value \"Bouncy\"; use one of Linear, EaseIn, EaseOut, EaseInOut",
    );
}

#[test]
fn unknown_parameter_type_does_not_cascade() {
    // Only the Type error: no second "is a Bool" error about the blend space using it.
    one_error(&edit(r#""Type": "Float""#, r#""Type": "Flaot""#), "p_speed.Type", "unknown value \"Flaot\"");
}

#[test]
fn dangling_reference_names_the_missing_id() {
    one_error(
        &edit(r#"[ { "res": "c_jump" } ]"#, r#"[ { "res": "c_jmp" } ]"#),
        "t_jump.Conditions[0]",
        "no resource \"c_jmp\"",
    );
}

#[test]
fn cyclic_sub_machine_is_an_error() {
    let text = edit(
        r#""l_base""#,
        r#""s_sub": { "type": "SubMachineState", "props": { "Name": "Sub", "Machine": { "res": "m_sub" } } },
    "m_sub": { "type": "GraphMachine", "props": { "Entry": "Sub", "States": [ { "res": "s_sub" } ] } },
    "l_base""#,
    )
    .replacen(r#"{ "res": "s_aim" } ]"#, r#"{ "res": "s_aim" }, { "res": "s_sub" } ]"#, 1);
    one_error(&text, "m_sub.States[0]", "cyclic reference s_sub -> m_sub -> s_sub");
}

#[test]
fn duplicate_state_name_is_an_error() {
    one_error(&edit(r#""Name": "Aim""#, r#""Name": "Jump""#), "s_aim.Name", "duplicate state name \"Jump\"");
}

#[test]
fn duplicate_parameter_name_is_an_error() {
    let text = edit(r#""Name": "grounded", "Type": "Bool""#, r#""Name": "speed", "Type": "Float""#);
    one_error(&text, "p_grounded.Name", "duplicate parameter name \"speed\"");
}

#[test]
fn duplicate_layer_name_is_an_error() {
    let text = edit(
        r#""Layers": [ { "res": "l_base" } ]"#,
        r#""Layers": [ { "res": "l_base" }, { "type": "GraphLayer", "props": { "Name": "Base", "Machine": { "res": "m_base" } } } ]"#,
    );
    let all = diagnostics(&text);
    assert!(
        all.iter().any(|d| d.is_error()
            && d.location() == "props.Layers[1].Name"
            && d.message.contains("duplicate layer name \"Base\"")),
        "{all:#?}"
    );
}

#[test]
fn transition_from_missing_state_is_an_error() {
    one_error(
        &edit(r#""From": "Jump""#, r#""From": "Jmp""#),
        "t_land.From",
        "no state \"Jmp\" in this machine; use one of \"Move\", \"Jump\", \"Aim\" or \"*\"",
    );
}

#[test]
fn transition_to_missing_state_is_an_error() {
    one_error(&edit(r#""To": "Move""#, r#""To": "Mvoe""#), "t_land.To", "no state \"Mvoe\"");
}

#[test]
fn exit_outside_a_sub_machine_is_an_error() {
    one_error(&edit(r#""To": "Move""#, r#""To": "<exit>""#), "t_land.To", "\"<exit>\" leaves a sub-machine");
}

#[test]
fn condition_on_missing_parameter_is_an_error() {
    one_error(
        &edit(r#""Parameter": "jump""#, r#""Parameter": "jmp""#),
        "c_jump.Parameter",
        "no parameter \"jmp\"",
    );
}

#[test]
fn triggered_on_a_float_is_an_error() {
    one_error(
        &edit(r#""Parameter": "jump""#, r#""Parameter": "speed""#),
        "c_jump.Op",
        "Triggered does not fit Float parameter \"speed\"; use Greater, Less",
    );
}

#[test]
fn greater_on_a_bool_is_an_error() {
    one_error(
        &edit(r#""Parameter": "jump", "Op": "Triggered""#, r#""Parameter": "grounded", "Op": "Greater""#),
        "c_jump.Op",
        "Greater does not fit Bool parameter \"grounded\"; use True, False",
    );
}

#[test]
fn blend_space_on_a_bool_parameter_is_an_error() {
    one_error(
        &edit(r#""Parameter": "speed""#, r#""Parameter": "grounded""#),
        "s_move.Parameter",
        "is a Bool; it must be an Int or Float",
    );
}

#[test]
fn positions_not_ascending_is_an_error() {
    one_error(
        &edit("[0, 1.5, 4]", "[0, 4, 1.5]"),
        "s_move.Positions[2]",
        "not greater than the previous position 4",
    );
}

#[test]
fn clips_and_positions_length_mismatch_is_an_error() {
    one_error(&edit("[0, 1.5, 4]", "[0, 1.5]"), "s_move.Positions", "has 2 positions for 3 clips");
}

#[test]
fn duplicate_2d_point_is_an_error() {
    one_error(
        &edit("[[0, 0], [1, 0], [0, 1]]", "[[0, 0], [1, 0], [1, 0]]"),
        "s_aim.Positions[2]",
        "repeats Positions[1]",
    );
}

#[test]
fn infinite_number_is_an_error() {
    one_error(
        &edit(r#""ExitTime": 0.9"#, r#""ExitTime": 1e39"#),
        "t_land.ExitTime",
        "out of range for a 32-bit float",
    );
}

#[test]
fn nan_literal_is_malformed_json() {
    one_error(&edit(r#""ExitTime": 0.9"#, r#""ExitTime": NaN"#), "", "malformed JSON");
}

#[test]
fn nan_in_a_built_graph_is_an_error() {
    let mut graph = mres::load_str(BASE).unwrap().graph.into_graph();
    graph.layers[0].machine.transitions[1].exit_time = f32::NAN;
    let issues = animgraph_runtime::graph::validate(&graph);
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].path, "Layers[0].Machine.Transitions[1].ExitTime");
    assert!(issues[0].message.contains("not a finite number"));
}

#[test]
fn negative_duration_is_an_error() {
    one_error(
        &edit(r#""Duration": 0.1"#, r#""Duration": -0.5"#),
        "t_jump.Duration",
        "is -0.5; use seconds (0 or more), or -1",
    );
}

#[test]
fn negative_default_mix_is_an_error() {
    one_error(
        &edit(
            r#""Layers": [ { "res": "l_base" } ]"#,
            r#""Layers": [ { "res": "l_base" } ], "DefaultMix": -1"#,
        ),
        "props.DefaultMix",
        "is -1; a crossfade duration must be 0 or more",
    );
}

#[test]
fn empty_entry_is_an_error() {
    one_error(
        &edit(r#""Entry": "Move""#, r#""Entry": """#),
        "m_base.Entry",
        "is empty; name the state the machine starts in",
    );
}

#[test]
fn entry_naming_a_missing_state_is_an_error() {
    one_error(
        &edit(r#""Entry": "Move""#, r#""Entry": "Walk""#),
        "m_base.Entry",
        "no state \"Walk\"; use one of \"Move\", \"Jump\", \"Aim\"",
    );
}

#[test]
fn wrong_json_type_for_a_property_is_an_error() {
    one_error(
        &edit(r#""Loop": false"#, r#""Loop": "no""#),
        "s_jump.Loop",
        "expected true or false, found a string",
    );
}

#[test]
fn unknown_property_is_only_a_warning() {
    let loaded = mres::load_str(&edit(r#""Loop": false"#, r#""Loop": false, "Colour": "red""#)).unwrap();
    assert_eq!(loaded.warnings.len(), 1);
    assert_eq!(loaded.warnings[0].location(), "s_jump.Colour");
    assert!(loaded.warnings[0].message.contains("unknown property of ClipState"));
}

#[test]
fn unreferenced_resource_is_only_a_warning() {
    let loaded = mres::load_str(&edit(
        r#""l_base""#,
        r#""s_spare": { "type": "ClipState", "props": { "Name": "Spare" } },
    "l_base""#,
    ))
    .unwrap();
    assert_eq!(loaded.warnings.len(), 1);
    assert_eq!(loaded.warnings[0].location(), "s_spare");
}

#[test]
fn inline_sub_resources_load_like_references() {
    let text = edit(
        r#"[ { "res": "c_jump" } ]"#,
        r#"[ { "type": "GraphCondition", "props": { "Parameter": "jump", "Op": "Triggered" } } ]"#,
    );
    let loaded = mres::load_str(&text).unwrap();
    let reference = mres::load_str(BASE).unwrap();
    assert_eq!(loaded.graph, reference.graph);
    // c_jump is now unreferenced: one warning.
    assert_eq!(loaded.warnings.len(), 1);
}

#[test]
fn every_error_is_collected_not_just_the_first() {
    let text = edit(r#""To": "Move""#, r#""To": "Mvoe""#)
        .replacen(r#""Entry": "Move""#, r#""Entry": "Walk""#, 1)
        .replacen("[0, 1.5, 4]", "[0, 1.5]", 1);
    let errors = diagnostics(&text).into_iter().filter(|d| d.is_error()).count();
    assert_eq!(errors, 3);
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    one_error(&deep, "", "malformed JSON: recursion limit exceeded");
}

#[test]
fn deep_sub_machine_chain_is_an_error_not_a_stack_overflow() {
    // 300 sub-machines each inside the previous one, by reference.
    let mut resources = String::new();
    for i in 0..300 {
        resources.push_str(&format!(
            r#""s{i}": {{ "type": "SubMachineState", "props": {{ "Name": "S", "Machine": {{ "res": "m{}" }} }} }},
            "m{}": {{ "type": "GraphMachine", "props": {{ "Entry": "S", "States": [ {{ "res": "s{}" }} ] }} }},"#,
            i + 1,
            i + 1,
            i + 1
        ));
    }
    let text = format!(
        r#"{{ "format": 2, "uid": "x", "type": "AnimationGraph", "resources": {{ {resources}
        "m0": {{ "type": "GraphMachine", "props": {{ "Entry": "S", "States": [ {{ "res": "s0" }} ] }} }},
        "l": {{ "type": "GraphLayer", "props": {{ "Machine": {{ "res": "m0" }} }} }} }},
        "props": {{ "Layers": [ {{ "res": "l" }} ] }} }}"#
    );
    let all = diagnostics(&text);
    assert!(
        all.iter().any(|d| d.is_error() && d.message.contains("nest more than")),
        "{:?}",
        &all[..3.min(all.len())]
    );
}

#[test]
fn oversized_input_is_refused() {
    let big = format!("{{\"format\": 2, \"pad\": \"{}\"}}", "x".repeat(mres::MAX_FILE_BYTES));
    one_error(&big, "", "the limit is");
}

#[test]
fn not_an_object_is_an_error() {
    one_error("[1, 2, 3]", "", "the file holds an array");
}
