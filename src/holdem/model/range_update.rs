//! Bayes' update of a range under the CNN through its per-holding path: the same result as
//! [`Range::observe`] with a [`CnnModel`], with the public planes convolved once per update
//! instead of once per holding.
use super::cnn::CnnModel;
use crate::holdem::policy::{ActionClass, ActionModel};
use crate::holdem::range::Range;
use crate::holdem::rules::{HandState, Position};

/// [`Range::observe`] for `model`: `before` is the hand just before `actor` played an
/// action of class `observed`. Falls back on [`Range::observe`] when `actor` is not the
/// player to act in `before`.
pub fn observe_with_cnn(
    range: &mut Range,
    before: &HandState,
    actor: Position,
    observed: ActionClass,
    model: &CnnModel<'_>,
) {
    let mut hypothesis = before.clone();
    hypothesis.forget_hole_cards(actor);
    let prepared = match model.prepare(&hypothesis) {
        Some(prepared) if hypothesis.to_act() == Some(actor) => prepared,
        _ => {
            range.observe(before, actor, observed, model as &dyn ActionModel);
            return;
        }
    };
    range.remove_dead(hypothesis.dealt_mask());
    range.reweight(|_, cards| prepared.predict(cards)[observed.index()]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::card::Card;
    use crate::holdem::rules::{Action, HoldemConfig};

    #[test]
    fn the_prepared_update_equals_the_generic_one() {
        let card = |t: &str| Card::parse(t).unwrap();
        let mut before = HandState::new(HoldemConfig::ACPC);
        before.deal_hole_cards(0, [card("Ah"), card("Ac")]).unwrap();
        before.deal_hole_cards(1, [card("Kd"), card("Qd")]).unwrap();
        before.apply(Action::RaiseTo(300)).unwrap();
        before.apply(Action::Call).unwrap();
        for t in ["2h", "9d", "Td"] {
            before.deal_board_card(card(t)).unwrap();
        }
        let model = CnnModel::shipped();
        for class in [ActionClass::Call, ActionClass::SmallRaise] {
            let mut generic = Range::uniform();
            generic.observe(&before, 0, class, &model);
            let mut fast = Range::uniform();
            observe_with_cnn(&mut fast, &before, 0, class, &model);
            for (a, b) in generic.weights().iter().zip(fast.weights()) {
                assert!((a - b).abs() <= 1e-5 * a.max(1e-3), "{a} {b}");
            }
            assert!(fast.weights().iter().filter(|&&w| w == 0.0).count() > 0);
            // The update says something: not every holding keeps the same weight.
            let live: Vec<f32> = fast
                .weights()
                .iter()
                .copied()
                .filter(|&w| w > 0.0)
                .collect();
            assert!(live.iter().any(|&w| (w - live[0]).abs() > 1e-3));
        }
        // Not the actor's turn: the generic update runs.
        let mut fallback = Range::uniform();
        observe_with_cnn(&mut fallback, &before, 1, ActionClass::Call, &model);
        let mut generic = Range::uniform();
        generic.observe(&before, 1, ActionClass::Call, &model);
        assert_eq!(fallback, generic);
    }
}
