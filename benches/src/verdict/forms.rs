//! Which form of a routine an engine profile runs, read from the profile's
//! name (see `engine::search::profile`): `mailbox` every routine old,
//! `bitboard` every routine new, `single-probe` new but with the
//! approximate mobility, `bitboard-old-R` new but `R`, `mailbox-new-R` old
//! but `R` (`R` = `mobility` covers the four piece types).

use engine::search::ProfileKind;
use engine::tools::routine_equiv::Routine;

/// The form of one routine in a profile.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Form {
    Old,
    New,
    /// Neither: the single-probe approximation of mobility.
    Approximate,
}

impl Form {
    pub const fn name(self) -> &'static str {
        match self {
            Form::Old => "old",
            Form::New => "new",
            Form::Approximate => "approximate (single-probe)",
        }
    }
}

/// Does the routine part `part` of a swapped profile's name (`movegen`,
/// `attacks`, `defects`, `mobility`, `mobility-knight`, ...) cover `routine`?
fn covers(part: &str, routine: Routine) -> bool {
    part == routine.name() || (part == "mobility" && routine.name().starts_with("mobility-"))
}

/// The form of `routine` in `profile`.
pub fn form_of(profile: ProfileKind, routine: Routine) -> Form {
    let name = profile.name();
    let mobility = routine.name().starts_with("mobility-");
    match profile {
        ProfileKind::Mailbox => Form::Old,
        ProfileKind::Bitboard => Form::New,
        ProfileKind::SingleProbe if mobility => Form::Approximate,
        ProfileKind::SingleProbe => Form::New,
        _ => {
            if let Some(part) = name.strip_prefix("bitboard-old-") {
                if covers(part, routine) {
                    Form::Old
                } else {
                    Form::New
                }
            } else if let Some(part) = name.strip_prefix("mailbox-new-") {
                if covers(part, routine) {
                    Form::New
                } else {
                    Form::Old
                }
            } else {
                unreachable!("profile {name} is neither whole nor swapped: add it to verdict::forms")
            }
        }
    }
}

/// The profile an engine ran with, from its `NAME=VALUE` UCI options
/// (the engine's default profile when none is set).
pub fn profile_of(options: &[String]) -> Result<ProfileKind, String> {
    let set = options.iter().rev().find_map(|o| {
        let (n, v) = o.split_once('=')?;
        n.trim().eq_ignore_ascii_case("profile").then(|| v.trim().to_string())
    });
    match set {
        None => Ok(ProfileKind::default()),
        Some(v) => v.parse::<ProfileKind>().map_err(|e| e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profile_has_a_form_of_every_routine() {
        for p in ProfileKind::EVERY {
            for r in Routine::ALL {
                let _ = form_of(p, r);
            }
        }
        use Routine::*;
        assert_eq!(form_of(ProfileKind::Mailbox, Movegen), Form::Old);
        assert_eq!(form_of(ProfileKind::Bitboard, MobilityQueen), Form::New);
        assert_eq!(form_of(ProfileKind::SingleProbe, MobilityQueen), Form::Approximate);
        assert_eq!(form_of(ProfileKind::SingleProbe, Defects), Form::New);
        for r in Routine::ALL {
            // A routine's own old profile has it old, the rest new.
            assert_eq!(form_of(r.old_profile(), r), Form::Old, "{r}");
            for other in Routine::ALL.into_iter().filter(|o| *o != r) {
                assert_eq!(form_of(r.old_profile(), other), Form::New, "{r} {other}");
            }
        }
        assert_eq!(form_of(ProfileKind::BitboardOldMobility, MobilityKnight), Form::Old);
        assert_eq!(form_of(ProfileKind::MailboxNewMobility, MobilityRook), Form::New);
        assert_eq!(form_of(ProfileKind::MailboxNewMobility, Attacks), Form::Old);
        assert_eq!(form_of(ProfileKind::MailboxNewAttacks, Attacks), Form::New);
    }

    #[test]
    fn the_profile_option_is_read_case_blind_and_defaults() {
        assert_eq!(profile_of(&["Profile=mailbox".into()]), Ok(ProfileKind::Mailbox));
        assert_eq!(
            profile_of(&["Hash=16".into(), "profile = Bitboard-Old-Defects".into()]),
            Ok(ProfileKind::BitboardOldDefects)
        );
        assert_eq!(profile_of(&["Hash=16".into()]), Ok(ProfileKind::default()));
        assert!(profile_of(&["Profile=magic".into()]).unwrap_err().contains("unknown profile"));
    }
}
