//! "Why didn't it fire?": a transition's check on the last frame, from explain mode (the
//! editor's own player, or an attached game's stream), shown in the inspector and as a tooltip
//! over its arrow.

use animgraph_runtime::frame::{CandidateExplainRecord, ExplainRecord};
use eframe::egui::{self, Color32};

const TRUE: Color32 = Color32::from_rgb(110, 210, 120);
const FALSE: Color32 = Color32::from_rgb(240, 110, 100);
const NOTE: Color32 = Color32::from_rgb(230, 200, 90);

/// What the last frame says of one transition.
#[derive(Clone, Debug, PartialEq)]
pub enum Why {
    /// It was a candidate: its check.
    Checked(CandidateExplainRecord),
    /// It was not a candidate; the text says why (the layer was blocked, or played elsewhere).
    NotChecked(String),
}

/// The last frame's word on the transition at `path` of layer `layer`.
pub fn lookup(record: &ExplainRecord, layer: usize, path: &str) -> Why {
    let Some(l) = record.layers.get(layer) else {
        return Why::NotChecked("this layer was not explained".into());
    };
    if let Some(c) = record.candidate(layer, path) {
        return Why::Checked(c.clone());
    }
    if l.checked.starts_with("blocked") {
        return Why::NotChecked(l.checked.clone());
    }
    if let Some(travel) = &l.travel {
        return Why::NotChecked(format!("a travel to {travel} was applied instead"));
    }
    Why::NotChecked(format!(
        "not checked this frame: its source is not playing (the layer checked the {})",
        l.checked
    ))
}

/// One-line verdict.
pub fn headline(why: &Why) -> (String, Color32) {
    match why {
        Why::NotChecked(text) => (text.clone(), NOTE),
        Why::Checked(c) => match (c.outcome.as_str(), &c.shadowed_by) {
            ("started" | "fired <exit>", _) => (format!("fired ({})", c.outcome), TRUE),
            (_, Some(by)) => {
                (format!("shadowed by {by}: it would have fired, but that one ranks first"), NOTE)
            }
            (outcome, None) => (outcome.to_string(), FALSE),
        },
    }
}

/// The verdict, each condition coloured by its result, and the exit-time gate.
pub fn show(ui: &mut egui::Ui, why: &Why) {
    let (text, colour) = headline(why);
    ui.colored_label(colour, text);
    let Why::Checked(c) = why else { return };
    for k in &c.conditions {
        let op = match k.op.as_str() {
            "Greater" => format!("> {}", k.value),
            "Less" => format!("< {}", k.value),
            "Equal" => format!("== {}", k.value),
            "NotEqual" => format!("!= {}", k.value),
            other => other.to_lowercase(),
        };
        let mark = if k.passed { "yes" } else { "no" };
        let parameter = if k.parameter.is_empty() { "(always)" } else { &k.parameter };
        ui.colored_label(
            if k.passed { TRUE } else { FALSE },
            format!("{mark}: {parameter} {op}   (it was {})", trim(k.actual)),
        );
    }
    if let Some([needed, had]) = c.exit_time {
        let passed = had >= needed;
        ui.horizontal(|ui| {
            ui.colored_label(
                if passed { TRUE } else { FALSE },
                format!("exit time {}: at {}", trim(needed), trim(had)),
            );
            let fraction = if needed > 0.0 { (had / needed).clamp(0.0, 1.0) } else { 1.0 };
            ui.add(egui::ProgressBar::new(fraction).desired_width(90.0));
        });
    }
    if c.side == "target" {
        ui.weak("checked for the running mix's target side");
    }
}

fn trim(v: f32) -> String {
    let text = format!("{v:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use animgraph_runtime::frame::{ConditionExplainRecord, LayerExplainRecord};

    fn candidate(path: &str, outcome: &str, shadowed_by: Option<&str>) -> CandidateExplainRecord {
        CandidateExplainRecord {
            transition: "A -> B".into(),
            path: path.into(),
            side: "source".into(),
            outcome: outcome.into(),
            shadowed_by: shadowed_by.map(str::to_string),
            exit_time: None,
            conditions: vec![ConditionExplainRecord {
                parameter: "speed".into(),
                op: "Greater".into(),
                value: 2.0,
                actual: 1.5,
                passed: false,
            }],
        }
    }

    fn record(checked: &str, candidates: Vec<CandidateExplainRecord>) -> ExplainRecord {
        ExplainRecord {
            layers: vec![LayerExplainRecord {
                checked: checked.into(),
                travel: None,
                started: None,
                candidates,
            }],
            ..Default::default()
        }
    }

    #[test]
    fn verdicts_name_the_reason() {
        let r = record(
            "current state and *",
            vec![candidate("P0", "conditions failed", None), candidate("P1", "shadowed", Some("X -> Y"))],
        );
        assert_eq!(headline(&lookup(&r, 0, "P0")).0, "conditions failed");
        assert!(headline(&lookup(&r, 0, "P1")).0.starts_with("shadowed by X -> Y"));
        assert!(matches!(lookup(&r, 0, "P9"), Why::NotChecked(t) if t.contains("not checked")));
        let blocked = record("blocked: the running mix has Interrupt None", vec![]);
        assert_eq!(headline(&lookup(&blocked, 0, "P0")).0, "blocked: the running mix has Interrupt None");
        assert!(matches!(lookup(&blocked, 3, "P0"), Why::NotChecked(_)));
    }
}
