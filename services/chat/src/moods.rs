//! The opening panel (ListMoods): the moods Quinn understands, each sent as its label's
//! words when chosen, and the assistant's name.

use quire_proto::chat::v1 as pb;

use crate::understanding::MOODS;

pub fn list(name: String) -> pb::MoodList {
    pb::MoodList {
        moods: MOODS
            .iter()
            .map(|m| pb::Mood {
                id: m.id.to_owned(),
                label: m.label.to_owned(),
                utterance: m.label.to_owned(),
                genres: m.genres.iter().map(|g| (*g).to_owned()).collect(),
            })
            .collect(),
        assistant_name: name,
    }
}
