//! Canonical composition of letters and combining marks (U+0300 to U+036F) for Latin and
//! Cyrillic letters: what a normalisation-insensitive file system (APFS) or one that stores
//! names decomposed (HFS+) takes as one name, `A` and `\u{308}` being `Ä`.

/// For each combining mark: the letters it composes with, and, at the same places, what
/// each becomes (Unicode's canonical compositions, Latin and Cyrillic).
const COMPOSITIONS: &[(char, &str, &str)] = &[
    (
        '\u{300}',
        "AEINOUWYaeinouwyÂÊÔÜâêôüĂăĒēŌōƠơƯưЕИеи",
        "ÀÈÌǸÒÙẀỲàèìǹòùẁỳẦỀỒǛầềồǜẰằḔḕṐṑỜờỪừЀЍѐѝ",
    ),
    (
        '\u{301}',
        "ACEGIKLMNOPRSUWYZacegiklmnoprsuwyzÂÅÆÇÊÏÔÕØÜâåæçêïôõøüĂăĒēŌōŨũƠơƯưГКгк",
        "ÁĆÉǴÍḰĹḾŃÓṔŔŚÚẂÝŹáćéǵíḱĺḿńóṕŕśúẃýźẤǺǼḈẾḮỐṌǾǗấǻǽḉếḯốṍǿǘẮắḖḗṒṓṸṹỚớỨứЃЌѓќ",
    ),
    (
        '\u{302}',
        "ACEGHIJOSUWYZaceghijosuwyzẠạẸẹỌọ",
        "ÂĈÊĜĤÎĴÔŜÛŴŶẐâĉêĝĥîĵôŝûŵŷẑẬậỆệỘộ",
    ),
    (
        '\u{303}',
        "AEINOUVYaeinouvyÂÊÔâêôĂăƠơƯư",
        "ÃẼĨÑÕŨṼỸãẽĩñõũṽỹẪỄỖẫễỗẴẵỠỡỮữ",
    ),
    (
        '\u{304}',
        "AEGIOUYaegiouyÄÆÕÖÜäæõöüǪǫȦȧȮȯИУиуḶḷṚṛ",
        "ĀĒḠĪŌŪȲāēḡīōūȳǞǢȬȪǕǟǣȭȫǖǬǭǠǡȰȱӢӮӣӯḸḹṜṝ",
    ),
    (
        '\u{306}',
        "AEGIOUaegiouȨȩАЕЖИУаежиуẠạ",
        "ĂĔĞĬŎŬăĕğĭŏŭḜḝӐӖӁЙЎӑӗӂйўẶặ",
    ),
    (
        '\u{307}',
        "ABCDEFGHIMNOPRSTWXYZabcdefghmnoprstwxyzŚśŠšſṢṣ",
        "ȦḂĊḊĖḞĠḢİṀṄȮṖṘṠṪẆẊẎŻȧḃċḋėḟġḣṁṅȯṗṙṡṫẇẋẏżṤṥṦṧẛṨṩ",
    ),
    (
        '\u{308}',
        "AEHIOUWXYaehiotuwxyÕõŪūІАЕЖЗИОУЧЫЭаежзиоучыэіӘәӨө",
        "ÄËḦÏÖÜẄẌŸäëḧïöẗüẅẍÿṎṏṺṻЇӒЁӜӞӤӦӰӴӸӬӓёӝӟӥӧӱӵӹӭїӚӛӪӫ",
    ),
    (
        '\u{309}',
        "AEIOUYaeiouyÂÊÔâêôĂăƠơƯư",
        "ẢẺỈỎỦỶảẻỉỏủỷẨỂỔẩểổẲẳỞởỬử",
    ),
    ('\u{30a}', "AUauwy", "ÅŮåůẘẙ"),
    ('\u{30b}', "OUouУу", "ŐŰőűӲӳ"),
    (
        '\u{30c}',
        "ACDEGHIKLNORSTUZacdeghijklnorstuzÜüƷʒ",
        "ǍČĎĚǦȞǏǨĽŇǑŘŠŤǓŽǎčďěǧȟǐǰǩľňǒřšťǔžǙǚǮǯ",
    ),
    ('\u{30f}', "AEIORUaeioruѴѵ", "ȀȄȈȌȐȔȁȅȉȍȑȕѶѷ"),
    ('\u{311}', "AEIORUaeioru", "ȂȆȊȎȒȖȃȇȋȏȓȗ"),
    ('\u{31b}', "OUou", "ƠƯơư"),
    (
        '\u{323}',
        "ABDEHIKLMNORSTUVWYZabdehiklmnorstuvwyzƠơƯư",
        "ẠḄḌẸḤỊḲḶṂṆỌṚṢṬỤṾẈỴẒạḅḍẹḥịḳḷṃṇọṛṣṭụṿẉỵẓỢợỰự",
    ),
    ('\u{324}', "Uu", "Ṳṳ"),
    ('\u{325}', "Aa", "Ḁḁ"),
    ('\u{326}', "STst", "ȘȚșț"),
    (
        '\u{327}',
        "CDEGHKLNRSTcdeghklnrst",
        "ÇḐȨĢḨĶĻŅŖŞŢçḑȩģḩķļņŗşţ",
    ),
    ('\u{328}', "AEIOUaeiou", "ĄĘĮǪŲąęįǫų"),
    ('\u{32d}', "DELNTUdelntu", "ḒḘḼṊṰṶḓḙḽṋṱṷ"),
    ('\u{32e}', "Hh", "Ḫḫ"),
    ('\u{330}', "EIUeiu", "ḚḬṴḛḭṵ"),
    ('\u{331}', "BDKLNRTZbdhklnrtz", "ḆḎḴḺṈṞṮẔḇḏẖḵḻṉṟṯẕ"),
];

/// The letter that `base` followed by the combining `mark` composes to, if any.
///
/// ```ignore
/// assert_eq!(compose('A', '\u{308}'), Some('Ä'));
/// ```
pub(super) fn compose(base: char, mark: char) -> Option<char> {
    let (_, bases, composed) = COMPOSITIONS.iter().find(|(m, _, _)| *m == mark)?;
    let at = bases.chars().position(|b| b == base)?;
    composed.chars().nth(at)
}

/// Whether `c` is a combining mark of the block this table composes (U+0300 to U+036F).
pub(super) fn is_combining_mark(c: char) -> bool {
    matches!(c, '\u{300}'..='\u{36f}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_mark_has_as_many_letters_as_compositions() {
        for (mark, bases, composed) in COMPOSITIONS {
            assert!(is_combining_mark(*mark), "{mark:?}");
            assert_eq!(bases.chars().count(), composed.chars().count(), "{mark:?}");
        }
    }

    #[test]
    fn letters_compose_with_their_marks() {
        assert_eq!(compose('A', '\u{308}'), Some('\u{c4}'));
        assert_eq!(compose('e', '\u{301}'), Some('\u{e9}'));
        assert_eq!(compose('\u{438}', '\u{306}'), Some('\u{439}'));
        assert_eq!(compose('\u{1eb9}', '\u{302}'), Some('\u{1ec7}'));
        assert_eq!(compose('q', '\u{308}'), None);
        assert_eq!(compose('a', 'b'), None);
    }
}
