//! The `animgraph` command as a user runs it.

use std::process::Command;

fn animgraph(args: &[&str]) -> (i32, String) {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let out = Command::new(env!("CARGO_BIN_EXE_animgraph")).args(args).current_dir(root).output().unwrap();
    let mut text = String::from_utf8(out.stdout).unwrap();
    text.push_str(&String::from_utf8(out.stderr).unwrap());
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn valid_files_print_one_summary_line_each() {
    let (code, out) =
        animgraph(&["validate", "assets/graphs/locomotion.mres", "assets/graphs/showcase.mres"]);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(
        lines[0],
        "assets/graphs/locomotion.mres: ok: 2 parameters, 1 layer, 2 states, 2 transitions, 1 blend space"
    );
    assert!(lines[1].starts_with("assets/graphs/showcase.mres: ok: 12 parameters, 3 layers"), "{out}");
}

#[test]
fn an_invalid_file_lists_every_error_and_exits_1() {
    let dir = animgraph_test_support::scratch_dir("cli");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/assets/graphs/locomotion.mres")).unwrap();
    let bad =
        text.replace(r#""To": "Move""#, r#""To": "Mvoe""#).replace(r#""Entry": "Move""#, r#""Entry": "Run""#);
    let path = dir.join("bad.mres");
    std::fs::write(&path, bad).unwrap();
    let (code, out) = animgraph(&["validate", "assets/graphs/locomotion.mres", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("bad.mres: invalid: 2 errors"), "{out}");
    assert!(out.contains("error (line 14, column 5): t_land.To: no state \"Mvoe\""), "{out}");
    assert!(out.contains("m_base.Entry: no state \"Run\""), "{out}");
    assert!(out.contains("locomotion.mres: ok"), "the valid file is still summarised: {out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_file_is_reported_not_a_panic() {
    let (code, out) = animgraph(&["validate", "no/such/file.mres"]);
    assert_eq!(code, 1);
    assert!(out.contains("no/such/file.mres: invalid: cannot read"), "{out}");
}

#[test]
fn every_command_has_help() {
    for args in [
        &["--help"][..],
        &["validate", "--help"],
        &["simulate", "--help"],
        &["import", "--help"],
        &["render", "--help"],
        &["markers", "--help"],
    ] {
        let (code, out) = animgraph(args);
        assert_eq!(code, 0, "{args:?}");
        assert!(out.contains("Usage: animgraph"), "{out}");
    }
}

#[test]
fn simulate_prints_one_json_object_per_frame() {
    let (code, out) = animgraph(&[
        "simulate",
        "assets/graphs/locomotion.mres",
        "--script",
        "assets/scripts/locomotion.json",
    ]);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 150);
    let frame60: serde_json::Value = serde_json::from_str(lines[60]).unwrap();
    assert_eq!(frame60["frame"], 60);
    assert_eq!(frame60["layers"][0]["state"], "Move");
    assert_eq!(frame60["layers"][0]["in_transition"], true);
    assert_eq!(frame60["layers"][0]["transition_to"], "Jump");
    assert_eq!(frame60["events"][0]["type"], "TransitionStarted");
    assert_eq!(frame60["events"][0]["from"], "Move");
    let samples = frame60["samples"].as_array().unwrap();
    let total: f64 = samples.iter().map(|s| s["weight"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-5, "{total}");
}

#[test]
fn simulate_reports_a_bad_script_with_its_step() {
    let dir = animgraph_test_support::scratch_dir("sim");
    let script = dir.join("bad.json");
    std::fs::write(&script, r#"{"frames": 10, "steps": [{"frame": 0}, {"frame": 3, "set": {"sped": 2}}]}"#)
        .unwrap();
    let (code, out) =
        animgraph(&["simulate", "assets/graphs/locomotion.mres", "--script", script.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.contains("step 1: no parameter \"sped\" in the graph"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn import_render_and_poses_work_on_gbot() {
    let dir = animgraph_test_support::scratch_dir("2d-cli");
    let out = dir.join("gbot.mskel");
    let (code, text) = animgraph(&[
        "import",
        "assets/characters/gbot/player.tscn",
        "--clips",
        "assets/characters/gbot/authored.json",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("16 bones, 7 slots, 11 clips"), "{text}");
    assert!(
        text.contains("warning: line 1775: node AnimationTree (AnimationTree) is not part of a skeleton"),
        "{text}"
    );
    assert!(dir.join("gBot.png").exists(), "the texture is copied next to the output");
    // The committed character is exactly what the import produces.
    let committed = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/characters/gbot/gbot.mskel"
    ))
    .unwrap();
    let fresh = std::fs::read_to_string(&out).unwrap();
    let without_uid = |t: &str| {
        t.lines().filter(|l| !l.trim_start().starts_with("\"uid\"")).map(str::to_string).collect::<Vec<_>>()
    };
    assert_eq!(without_uid(&fresh), without_uid(&committed), "only the uid may differ");

    let frames = dir.join("frames");
    let (code, text) = animgraph(&[
        "render",
        "assets/characters/gbot/gbot.mres",
        "--skeleton",
        out.to_str().unwrap(),
        "--script",
        "assets/characters/gbot/gbot.script.json",
        "--frames",
        "0,45,90",
        "--width",
        "128",
        "--height",
        "128",
        "--out",
        frames.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{text}");
    for f in [0, 45, 90] {
        let png = std::fs::read(frames.join(format!("frame_{f:04}.png"))).unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }
    let (code, text) = animgraph(&[
        "render",
        "assets/characters/gbot/gbot.mres",
        "--skeleton",
        out.to_str().unwrap(),
        "--script",
        "assets/characters/gbot/gbot.script.json",
        "--frames",
        "9999",
        "--out",
        frames.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(text.contains("frame 9999 is past the script's 330 frames"), "{text}");

    let (code, text) = animgraph(&[
        "simulate",
        "assets/characters/gbot/gbot.mres",
        "--skeleton",
        out.to_str().unwrap(),
        "--script",
        "assets/characters/gbot/gbot.script.json",
        "--poses",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 330);
    let frame: serde_json::Value = serde_json::from_str(lines[200]).unwrap();
    let arm = frame["pose"]["LeftArm"].as_array().unwrap();
    assert_eq!(arm.len(), 7);
    assert!(
        (arm[2].as_f64().unwrap() - -70.0).abs() < 0.5,
        "the wave layer holds the arm at -70 degrees: {arm:?}"
    );
    assert_eq!(frame["layers"][1]["state"], "Wave");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn importing_an_unknown_format_is_a_clear_error() {
    let (code, text) = animgraph(&["import", "assets/graphs/locomotion.mres", "-o", "/tmp/never.mskel"]);
    assert_eq!(code, 1);
    assert!(
        text.contains("cannot import .mres files; use a Godot 4 scene (.tscn) or Spine 4.0-4.2 JSON (.json)"),
        "{text}"
    );
    // A binary Spine export says what to do instead (it used to fail with "stream did not
    // contain valid UTF-8").
    let dir = animgraph_test_support::scratch_dir("skel");
    let skel = dir.join("hero.skel");
    std::fs::write(&skel, [0x9fu8, 0x00, 0xff, 0x42, 0x01]).unwrap();
    let (code, text) = animgraph(&["import", skel.to_str().unwrap(), "-o", "/tmp/never.mskel"]);
    assert_eq!(code, 1);
    assert!(
        text.contains("hero.skel: binary Spine exports (.skel) are not supported; export JSON"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn glb_characters_render_and_print_3d_poses() {
    let dir = animgraph_test_support::scratch_dir("3d-cli");
    let (code, text) = animgraph(&[
        "render",
        "assets/characters/fox/fox.mres",
        "--skeleton",
        "assets/characters/fox/Fox.glb",
        "--script",
        "assets/characters/fox/fox.script.json",
        "--frames",
        "10,130",
        "--width",
        "96",
        "--height",
        "96",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(dir.join("frame_0130.png").exists());
    let (code, text) = animgraph(&[
        "simulate",
        "assets/graphs/biped.mres",
        "--skeleton",
        "assets/characters/robot/RobotExpressive.glb",
        "--clip-map",
        "assets/graphs/biped.robot.clipmap.json",
        "--script",
        "assets/scripts/biped.json",
        "--poses",
    ]);
    assert_eq!(code, 0, "{text}");
    let line = text.lines().find(|l| l.starts_with('{')).unwrap();
    let frame: serde_json::Value = serde_json::from_str(line).unwrap();
    assert_eq!(frame["pose"]["Hips"].as_array().unwrap().len(), 10, "tx ty tz qx qy qz qw sx sy sz");
    assert_eq!(frame["samples"][0]["clip"], "Idle", "the graph's idle is the Robot's Idle");
    // The Robot's face: its morph weights per mesh node, keyed by the Idle clip.
    assert_eq!(frame["morphs"]["Head"].as_array().unwrap().len(), 3, "{}", frame["morphs"]);
    // Without the map the Robot lacks the graph's clips: said, not a crash.
    let (code, text) = animgraph(&[
        "simulate",
        "assets/graphs/biped.mres",
        "--skeleton",
        "assets/characters/robot/RobotExpressive.glb",
        "--script",
        "assets/scripts/biped.json",
    ]);
    assert_eq!(code, 0);
    assert!(
        text.contains("warning: clip \"walk\" is not in the skeleton"),
        "{}",
        &text[..text.len().min(2000)]
    );
    let (code, text) = animgraph(&[
        "simulate",
        "assets/graphs/biped.mres",
        "--skeleton",
        "assets/graphs/biped.mres",
        "--script",
        "assets/scripts/biped.json",
    ]);
    assert_eq!(code, 1);
    assert!(text.contains(".mres is not a skeleton; use a .mskel, .glb or .gltf file"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_clip_library_drives_its_character_in_simulate_render_and_lint() {
    let library = [
        "--skeleton",
        "assets/characters/mannequiny/mannequiny.glb",
        "--clips",
        "assets/characters/mannequiny/mannequiny_clips.glb",
        "--clip-map",
        "assets/graphs/biped.mannequiny.clipmap.json",
    ];
    let run = |command: &str, more: &[&str]| {
        let mut args = vec![command, "assets/graphs/biped.mres"];
        args.extend(library);
        args.extend(more);
        animgraph(&args)
    };
    let (code, text) = run("simulate", &["--script", "assets/scripts/biped.json", "--poses"]);
    assert_eq!(code, 0, "{text}");
    let frames: Vec<serde_json::Value> =
        text.lines().filter(|l| l.starts_with('{')).map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(frames[70]["samples"][0]["clip"], "dash_root.001", "{}", frames[70]["samples"]);
    assert!(frames[70]["pose"]["pelvis"].is_array());
    assert_ne!(
        frames[5]["pose"]["pelvis"], frames[70]["pose"]["pelvis"],
        "the library's clips move the pelvis"
    );
    let (code, text) = run("lint", &[]);
    assert_eq!(code, 0, "every clip resolves through the library and the map: {text}");
    let dir = animgraph_test_support::scratch_dir("library-cli");
    let (code, text) = run(
        "render",
        &[
            "--script",
            "assets/scripts/biped.json",
            "--frames",
            "70",
            "--width",
            "64",
            "--height",
            "64",
            "--out",
            dir.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{text}");
    assert!(dir.join("frame_0070.png").exists());
    std::fs::remove_dir_all(&dir).unwrap();
    // A library of another rig is a clear error.
    let (code, text) = animgraph(&[
        "simulate",
        "assets/graphs/biped.mres",
        "--skeleton",
        "assets/characters/mannequiny/mannequiny.glb",
        "--clips",
        "assets/characters/fox/Fox.glb",
        "--script",
        "assets/scripts/biped.json",
    ]);
    assert_eq!(code, 1);
    assert!(text.contains("Fox.glb: none of its 24 joints is named like a joint of the character"), "{text}");
}

#[test]
fn two_processes_replicate_gbot_over_udp() {
    use std::io::{BufRead, BufReader};
    let examples = std::path::Path::new(env!("CARGO_BIN_EXE_animgraph")).parent().unwrap().join("examples");
    let binary = examples.join("net_udp");
    if !binary.exists() {
        // Built by `cargo test` for the workspace (examples are compiled with the tests).
        let status = Command::new(env!("CARGO"))
            .args(["build", "-q", "-p", "animgraph-cli", "--example", "net_udp"])
            .status()
            .unwrap();
        assert!(status.success());
    }
    let mut remote = Command::new(&binary)
        .args(["remote", "127.0.0.1:0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(remote.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let address = first.strip_prefix("listening on ").unwrap_or_else(|| panic!("{first}")).to_string();
    let authority = Command::new(&binary).args(["authority", &address, "--fast"]).output().unwrap();
    assert!(authority.status.success());
    let sent: std::collections::HashSet<String> = String::from_utf8(authority.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split(" (").next().unwrap().to_string())
        .collect();
    assert_eq!(sent.len(), 330);
    let received: Vec<String> = lines.map_while(Result::ok).collect();
    let _ = remote.wait();
    assert!(received.len() > 250, "the remote applied only {} ticks over loopback", received.len());
    for line in &received {
        assert!(sent.contains(line), "the remote printed {line:?}, which the authority never showed");
    }
    assert!(
        received.iter().any(|l| l.contains("UpperBody=Wave"))
            && received.iter().any(|l| l.contains("Base=Air/"))
    );
}

#[test]
fn simulate_explain_says_which_transition_used_the_trigger() {
    let (code, out) = animgraph(&[
        "simulate",
        "assets/graphs/locomotion.mres",
        "--script",
        "assets/scripts/locomotion.json",
        "--explain",
    ]);
    assert_eq!(code, 0, "{out}");
    let frames: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(frames.iter().all(|f| f["explain"]["layers"].is_array()));
    let jump = frames
        .iter()
        .find(|f| f["explain"]["consumed"].as_array().is_some_and(|c| !c.is_empty()))
        .expect("the script fires jump");
    assert_eq!(jump["explain"]["consumed"][0]["trigger"], "jump");
    assert_eq!(jump["explain"]["layers"][0]["started"], "* -> Jump");
    // While jumping, Jump -> Move waits for its exit time and says how far Jump got.
    let waiting = frames.iter().find(|f| {
        f["explain"]["layers"][0]["candidates"]
            .as_array()
            .is_some_and(|c| c.iter().any(|c| c["outcome"] == "exit time not reached"))
    });
    let waiting = waiting.expect("Jump -> Move waits for ExitTime 0.9");
    let candidate = waiting["explain"]["layers"][0]["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["outcome"] == "exit time not reached")
        .unwrap();
    assert_eq!(candidate["transition"], "Jump -> Move");
    assert!(candidate["exit_time"][1].as_f64().unwrap() < 0.9);
    // Without the flag there is no explain field.
    let (_, plain) = animgraph(&[
        "simulate",
        "assets/graphs/locomotion.mres",
        "--script",
        "assets/scripts/locomotion.json",
    ]);
    assert!(!plain.lines().next().unwrap().contains("\"explain\""));
}

#[test]
fn lint_finds_every_problem_class_in_the_sample_and_exits_1_on_errors() {
    let (code, out) = animgraph(&[
        "lint",
        "assets/lint/mistakes.mres",
        "--skeleton",
        "assets/characters/gbot/gbot.mskel",
        "--json",
    ]);
    assert_eq!(code, 1, "L007 and L008 are errors: {out}");
    let json: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let findings = json["files"][0]["findings"].as_array().unwrap();
    let codes: std::collections::BTreeSet<&str> =
        findings.iter().map(|f| f["code"].as_str().unwrap()).collect();
    let all: Vec<String> = (1..=14).map(|n| format!("L{n:03}")).collect();
    assert_eq!(codes.into_iter().collect::<Vec<_>>(), all.iter().map(String::as_str).collect::<Vec<_>>());
    // Each names its resource and line, and says how to fix it.
    for f in findings {
        assert!(f["resource"].as_str().is_some_and(|r| !r.is_empty()), "{f}");
        assert!(f["line"].as_u64().is_some(), "{f}");
        assert!(f["fix"].as_str().is_some_and(|r| r.len() > 10), "{f}");
    }
    let shadowed = findings.iter().find(|f| f["code"] == "L004").unwrap();
    assert_eq!(shadowed["resource"], "t_run_aim2");
    // Clean graphs: status 0, one line each.
    let (code, out) =
        animgraph(&["lint", "assets/graphs/locomotion.mres", "assets/characters/gbot/gbot.mres"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.lines().filter(|l| l.ends_with(": clean")).count(), 2, "{out}");
    // Warnings only: status 0.
    let (code, out) =
        animgraph(&["lint", "assets/graphs/biped.mres", "--skeleton", "assets/characters/gbot/gbot.mskel"]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn simulate_record_writes_a_recording_of_every_frame() {
    let dir = animgraph_test_support::scratch_dir("cli-record");
    let file = dir.join("gbot.jsonl");
    let (code, out) = animgraph(&[
        "simulate",
        "assets/characters/gbot/gbot.mres",
        "--skeleton",
        "assets/characters/gbot/gbot.mskel",
        "--script",
        "assets/characters/gbot/gbot.script.json",
        "--record",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}");
    let printed: Vec<serde_json::Value> =
        out.lines().filter(|l| l.starts_with('{')).map(|l| serde_json::from_str(l).unwrap()).collect();
    let recording = animgraph_runtime::recording::Recording::load(&file).unwrap();
    assert_eq!(recording.len(), printed.len());
    assert_eq!(recording.header.graph_uid, "res_gbot_graph");
    // The recording says what simulate printed, frame by frame, and carries samples to pose.
    for (r, p) in recording.frames().iter().zip(&printed) {
        assert_eq!(r.frame.layers[0].state, p["layers"][0]["state"].as_str().unwrap());
        assert_eq!(r.samples.len(), p["samples"].as_array().unwrap().len());
        assert!(r.frame.explain.is_some());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_json_reports_every_scenario_and_no_allocations() {
    let (code, out) = animgraph(&["bench", "--json", "--budget-ms", "2", "--crowd", "16"]);
    assert_eq!(code, 0, "{out}");
    let json_line = out.lines().find(|l| l.starts_with('{')).unwrap_or_else(|| panic!("no JSON in {out}"));
    let report: serde_json::Value = serde_json::from_str(json_line).unwrap();
    assert!(report["machine"]["cores"].as_u64().unwrap() >= 1, "{report}");
    let rows = report["rows"].as_array().unwrap();
    let row = |prefix: &str| {
        rows.iter()
            .find(|r| r["scenario"].as_str().unwrap().starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix} row in {report}"))
    };
    for scenario in ["bind locomotion", "advance locomotion", "apply GBot", "apply Robot", "net encode"] {
        let value = row(scenario)["value"].as_f64().unwrap();
        assert!(value > 0.0 && value.is_finite(), "{scenario}: {value}");
    }
    assert_eq!(row("allocations per frame")["value"].as_f64(), Some(0.0), "{report}");
}

#[cfg(not(feature = "peer"))]
#[test]
fn bench_peer_without_the_feature_says_how_to_build_it() {
    let (code, out) = animgraph(&["bench", "--peer", "--budget-ms", "1", "--crowd", "1"]);
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("--features peer"), "{out}");
}

/// Devices, FIFOs and links to them given as any input are refused before reading (they used to
/// be read until memory ran out or block forever), and a skeleton's texture may not leave its
/// folder.
#[cfg(unix)]
#[test]
fn special_files_and_paths_leaving_the_folder_are_refused_by_every_input() {
    let dir = animgraph_test_support::scratch_dir("special");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let zero = |name: &str| {
        let link = dir.join(name);
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        link.to_str().unwrap().to_string()
    };
    let (graph, script, mskel, glb) = (zero("g.mres"), zero("s.json"), zero("x.mskel"), zero("x.glb"));
    let fifo = dir.join("fifo.json");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let fifo = fifo.to_str().unwrap().to_string();
    let cases: Vec<Vec<&str>> = vec![
        vec!["simulate", &graph, "--script", "assets/scripts/locomotion.json"],
        vec!["simulate", "assets/graphs/locomotion.mres", "--script", &script],
        vec!["simulate", "assets/graphs/locomotion.mres", "--script", &fifo],
        vec![
            "simulate",
            "assets/graphs/biped.mres",
            "--script",
            "assets/scripts/biped.json",
            "--skeleton",
            &mskel,
        ],
        vec![
            "simulate",
            "assets/graphs/biped.mres",
            "--script",
            "assets/scripts/biped.json",
            "--skeleton",
            &glb,
        ],
        vec!["validate", &graph],
    ];
    for args in cases {
        let (code, text) = animgraph(&args);
        assert_eq!(code, 1, "{args:?}: {text}");
        assert!(text.contains("not a regular file"), "{args:?}: {text}");
    }
    // A .mskel whose texture names a file outside its folder draws flat parts, with the reason.
    let gbot = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters/gbot/gbot.mskel"),
    )
    .unwrap();
    let texture = gbot.split("\"texture\": \"").nth(1).unwrap().split('"').next().unwrap().to_string();
    std::fs::write(dir.join("outside.mskel"), gbot.replace(&texture, "../../../etc/passwd")).unwrap();
    let outside = dir.join("outside.mskel");
    let (code, text) = animgraph(&[
        "simulate",
        "assets/graphs/biped.mres",
        "--script",
        "assets/scripts/biped.json",
        "--skeleton",
        outside.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("leaves the folder of the file that names it"),
        "{}",
        &text[text.len().saturating_sub(600)..]
    );
    assert!(!text.contains("root:"), "no contents of the other file");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_texture_outside_the_skeletons_folder_needs_allow_outside_paths() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let dir = animgraph_test_support::scratch_dir("cli-outside");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::copy(format!("{root}/assets/characters/gbot/gBot.png"), dir.join("gBot.png")).unwrap();
    let mskel = std::fs::read_to_string(format!("{root}/assets/characters/gbot/gbot.mskel")).unwrap();
    let skeleton = dir.join("sub/gbot.mskel");
    std::fs::write(&skeleton, mskel.replacen("\"texture\": \"gBot.png\"", "\"texture\": \"../gBot.png\"", 1))
        .unwrap();
    let render = |extra: &[&str]| {
        let frames = dir.join("frames");
        let mut args = vec![
            "render",
            "assets/characters/gbot/gbot.mres",
            "--skeleton",
            skeleton.to_str().unwrap(),
            "--script",
            "assets/characters/gbot/gbot.script.json",
            "--frames",
            "0",
            "--width",
            "64",
            "--height",
            "64",
            "--out",
        ];
        let out = frames.to_str().unwrap().to_string();
        args.push(&out);
        args.extend_from_slice(extra);
        animgraph(&args)
    };
    let (code, text) = render(&[]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("\"../gBot.png\" leaves the folder") && text.contains("--allow-outside-paths"),
        "{text}"
    );
    let (code, text) = render(&["--allow-outside-paths"]);
    assert_eq!(code, 0, "{text}");
    assert!(!text.contains("cannot load texture"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `animgraph markers` finds the Robot's foot plants and writes the sidecar the importer reads,
/// keeping clips it was not asked to measure; a bad foot is a one-line error.
#[test]
fn markers_writes_the_foot_plants_beside_the_model() {
    let dir = animgraph_test_support::scratch_dir("cli-markers");
    let model = dir.join("Robot.glb");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/characters/robot/RobotExpressive.glb"),
        &model,
    )
    .unwrap();
    let model_arg = model.to_str().unwrap();
    std::fs::write(dir.join("Robot.markers.json"), r#"{"Wave": [["hand", 0.5]]}"#).unwrap();
    let (code, out) = animgraph(&[
        "markers",
        model_arg,
        "--foot",
        "Foot.L=L",
        "--foot",
        "Foot.R=R",
        "--clips",
        "Walking,Idle",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Walking (0.958 s): L 0.008, R 0.467"), "{out}");
    assert!(out.contains("Idle (3.333 s): no plants"), "{out}");
    let written = std::fs::read_to_string(dir.join("Robot.markers.json")).unwrap();
    assert!(written.contains(r#""Walking": [["L", 0.008], ["R", 0.467]]"#), "{written}");
    assert!(written.contains(r#""Wave": [["hand", 0.5]]"#), "the other clip's markers were lost: {written}");
    let imported = animgraph_3d::import::import_file(&model).unwrap();
    assert_eq!(imported.skeleton.clip("Walking").unwrap().markers.len(), 2);
    let (code, out) = animgraph(&["markers", model_arg, "--foot", "Toe"]);
    assert_eq!(code, 1);
    assert!(out.contains("--foot Toe: write JOINT=NAME"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}
