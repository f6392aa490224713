//! Book covers drawn as SVG: a colour per genre, the title and the author in large type.
//! SVG keeps them tiny and sharp at every size, and the catalog accepts it.

use crate::build::xml::esc;

/// (background, accent) per genre; unknown genres get the last pair.
fn palette(genre: &str) -> (&'static str, &'static str) {
    match genre {
        "Classics" => ("#1f3a5f", "#e8c872"),
        "History" => ("#5b3a29", "#f2d0a4"),
        "Politics" => ("#2b2d42", "#ef233c"),
        "Children" => ("#ffb703", "#023047"),
        "Science Fiction" => ("#0b132b", "#5bc0be"),
        "Poetry" => ("#6d597a", "#f6e7cb"),
        "Mystery" => ("#14213d", "#fca311"),
        "Romance" => ("#9d0208", "#ffd6e0"),
        "Fantasy" => ("#2d6a4f", "#d8f3dc"),
        "Humour" => ("#f77f00", "#003049"),
        _ => ("#34495e", "#ecf0f1"),
    }
}

/// Greedy wrap by characters: cover titles are short.
fn lines(text: &str, width: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match out.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => out.push(word.to_owned()),
        }
    }
    out
}

/// A 600x900 SVG cover.
pub fn svg(title: &str, author: &str, genre: &str) -> Vec<u8> {
    let (bg, accent) = palette(genre);
    let title_lines = lines(title, 16);
    let size = if title_lines.len() > 4 { 44 } else { 56 };
    let mut title_svg = String::new();
    let top = 260 - (title_lines.len().min(6) as i32 - 1) * size / 2;
    for (i, line) in title_lines.iter().take(6).enumerate() {
        let y = top + i as i32 * (size + 10);
        title_svg.push_str(&format!(
            "<text x=\"300\" y=\"{y}\" font-size=\"{size}\" font-weight=\"700\">{}</text>",
            esc(line)
        ));
    }
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"600\" height=\"900\" viewBox=\"0 0 600 900\">\
<rect width=\"600\" height=\"900\" fill=\"{bg}\"/>\
<rect x=\"30\" y=\"30\" width=\"540\" height=\"840\" fill=\"none\" stroke=\"{accent}\" stroke-width=\"4\"/>\
<rect x=\"42\" y=\"42\" width=\"516\" height=\"816\" fill=\"none\" stroke=\"{accent}\" stroke-width=\"1\"/>\
<g fill=\"{accent}\" font-family=\"Georgia, 'Times New Roman', serif\" text-anchor=\"middle\">{title_svg}\
<circle cx=\"300\" cy=\"600\" r=\"6\"/><line x1=\"180\" y1=\"600\" x2=\"280\" y2=\"600\" stroke=\"{accent}\" stroke-width=\"2\"/>\
<line x1=\"320\" y1=\"600\" x2=\"420\" y2=\"600\" stroke=\"{accent}\" stroke-width=\"2\"/>\
<text x=\"300\" y=\"720\" font-size=\"30\">{}</text>\
<text x=\"300\" y=\"820\" font-size=\"20\" letter-spacing=\"4\">{}</text></g></svg>",
        esc(author),
        esc(&genre.to_uppercase())
    )
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cover_is_escaped_svg() {
        let svg = String::from_utf8(svg("Tom & Jerry <3", "A \"B\"", "Mystery")).unwrap();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.contains("Tom &amp; Jerry &lt;3"));
        assert!(svg.contains("A &quot;B&quot;"));
    }

    #[test]
    fn long_titles_wrap() {
        let wrapped = lines("The State of the Union Addresses", 16);
        assert_eq!(wrapped, vec!["The State of the", "Union Addresses"]);
    }
}
