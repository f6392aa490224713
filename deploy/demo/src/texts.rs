//! The texts written for the project (`deploy/demo/texts/*.txt`, CC0 1.0), compiled in
//! so the loader needs no file besides the installed registry packages.
//! Keep the list sorted; `catalog` tests check that every text parses and builds.

pub(crate) const ALL: [&str; 22] = [
    include_str!("../texts/a-body-in-the-orchard.txt"),
    include_str!("../texts/ember-and-the-iron-crown.txt"),
    include_str!("../texts/harbour-lights.txt"),
    include_str!("../texts/letters-to-the-lighthouse.txt"),
    include_str!("../texts/mo-the-moon-mouse.txt"),
    include_str!("../texts/murder-at-the-winter-library.txt"),
    include_str!("../texts/pip-and-the-paper-boat.txt"),
    include_str!("../texts/rust-and-starlight.txt"),
    include_str!("../texts/seed-vault.txt"),
    include_str!("../texts/small-weather.txt"),
    include_str!("../texts/summer-of-the-second-chance.txt"),
    include_str!("../texts/the-bookshop-on-vine-street.txt"),
    include_str!("../texts/the-cartographer-of-europa.txt"),
    include_str!("../texts/the-case-of-the-silent-bell.txt"),
    include_str!("../texts/the-clockmakers-alibi.txt"),
    include_str!("../texts/the-great-pancake-race.txt"),
    include_str!("../texts/the-hedgehog-who-lost-his-hum.txt"),
    include_str!("../texts/the-kitchen-psalms.txt"),
    include_str!("../texts/the-lantern-keepers-daughter.txt"),
    include_str!("../texts/the-last-signal-from-kepler-station.txt"),
    include_str!("../texts/the-salt-witch.txt"),
    include_str!("../texts/where-the-rivers-sing.txt"),
];
