"""Names players know, in their language, for the codes the rules use."""

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tracker.rules import state as s
from tracker.rules.orders import OUTCOME_KINDS, SKILLS
from tracker.rules.sealing import SECRET_KINDS

LABELS = {
    # traits
    s.HIDDEN_DEPLOYMENT: _("Hidden Deployment"),
    s.HOLOPROJECTOR: _("Holoprojector"),
    s.CAMOUFLAGE: _("Camouflage (marker)"),
    s.INFILTRATION: _("Infiltration"),
    s.COURAGE: _("Courage"),
    s.RELIGIOUS: _("Religious Troop"),
    s.VETERAN: _("Veteran"),
    s.FRENZY: _("Frenzy"),
    s.IMPETUOUS: _("Impetuous"),
    s.IRREGULAR: _("Irregular"),
    s.DOCTOR: _("Doctor"),
    s.ENGINEER: _("Engineer"),
    s.CUBE: _("Cube"),
    s.REMOTE_PRESENCE: _("Remote Presence"),
    s.LIEUTENANT_CANDIDATE: _("Lieutenant candidate"),
    s.HOLOMASK: _("HoloMask"),
    # conditions and tokens
    s.NORMAL: _("Normal"),
    s.UNCONSCIOUS: _("Unconscious"),
    s.DEAD: _("Dead"),
    s.SEPSITORIZED: _("Sepsitorized"),
    s.PRONE: _("Prone"),
    s.IMMOBILIZED_A: _("Immobilized-A"),
    s.IMMOBILIZED_B: _("Immobilized-B"),
    s.ISOLATED: _("Isolated"),
    s.POSSESSED: _("Possessed"),
    s.STUNNED: _("Stunned"),
    s.ENGAGED: _("Engaged"),
    s.UNLOADED: _("Unloaded"),
    # secrets
    s.LIEUTENANT: _("Lieutenant"),
    s.HD_POSITION: _("Hidden Deployment position"),
    s.HOLOECHO: _("Real Holoecho"),
    s.RESERVE: _("Reserved trooper"),
    s.NOTE: _("Sealed note"),
    "classified": _("Classified Objective"),
    "classified_draw": _("Classified draw"),
    "CL-5": _("accomplished (CL-5)"),
    s.HOLOMASK_TYPE: _("True troop type (HoloMask)"),
    "model": _("the model"),
    "marker1": _("Holoecho marker 1"),
    "marker2": _("Holoecho marker 2"),
    "marker": _("its marker"),
    "owner": _("by its owner"),
}

# Match and turn phases, apart from LABELS: the Impetuous Phase and the
# Impetuous trait (and the "Becomes Impetuous" outcome) share one code, and a
# trooper's trait read "Impetuous Phase" when they shared one table.
PHASES = {
    s.SETUP: _("Setting up"),
    s.DEPLOYMENT: _("Deployment Phase"),
    s.PLAYING: _("In play"),
    s.FINISHED: _("Finished"),
    s.TACTICAL: _("Tactical Phase"),
    s.IMPETUOUS_PHASE: _("Impetuous Phase"),
    s.ORDERS: _("Orders"),
    s.STATES: _("States Phase"),
}


def label(code: str | None) -> str:
    """The player-facing name of a code: a trait, state, phase, secret kind,
    skill or outcome. Rule IDs (HE-D3...) are shown as they are."""
    if code is None:
        return ""
    if code in LABELS:
        return str(LABELS[code])
    if code in PHASES:
        return str(PHASES[code])
    if code in SKILLS:
        return gettext(SKILLS[code].label)
    if code in OUTCOME_KINDS:
        return gettext(OUTCOME_KINDS[code])
    if code in SECRET_KINDS and SECRET_KINDS[code].label:
        # A secret kind names itself in its registration (#20).
        return gettext(str(SECRET_KINDS[code].label))
    return code


def phase_label(code: str | None) -> str:
    """The name of a match or turn phase ("impetuous" is the Impetuous Phase
    here, the Impetuous trait to label())."""
    if code in PHASES:
        return str(PHASES[code])
    return label(code)


def outcome_label(code: str | None) -> str:
    """The name of what the table decided ("impetuous": Becomes Impetuous)."""
    if code in OUTCOME_KINDS:
        return gettext(OUTCOME_KINDS[code])
    return label(code)
