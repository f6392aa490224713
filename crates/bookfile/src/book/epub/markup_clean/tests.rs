//! The cleaner against the tricks a sanitiser meets: scripts in every spelling, handlers,
//! script URLs, and markup that an XML and an HTML parser read differently.

use super::clean;

fn cleaned(doc: &str) -> String {
    String::from_utf8(clean(doc.as_bytes()).expect("something was removed")).unwrap()
}

/// No script, handler or script URL in any tag, read as an HTML parser would: a tag runs
/// from a `<` before a letter to the next `>`, names in any case (escaped text is inert).
fn assert_inert(out: &str) {
    let lower = out.to_ascii_lowercase();
    let mut rest = lower.as_str();
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        if !rest.starts_with(|c: char| c.is_ascii_alphabetic()) {
            continue;
        }
        let tag = &rest[..rest.find('>').unwrap_or(rest.len())];
        let name = tag
            .split([' ', '/', '\t', '\n', '\x0c'])
            .next()
            .unwrap_or_default();
        let local = name.rsplit(':').next().unwrap_or_default();
        assert!(
            !["script", "iframe"].contains(&local),
            "<{tag}> left in:\n{out}"
        );
        for bad in ["javascript:", " on", "/on", "\x0con", "\ton", "\non"] {
            assert!(!tag.contains(bad), "{bad:?} left in <{tag}> of:\n{out}");
        }
    }
}

const HEAD: &str = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE html>\n\
<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>T</title></head>\n";

#[test]
fn a_clean_chapter_is_left_alone() {
    let doc = format!(
        "{HEAD}<body class=\"c\">\n<!-- a note -->\n<h1 id='top'>One</h1>\n\
<p>A &amp; B<br/>&#8212; <a href=\"ch2.xhtml#p\">next</a> <img src=\"i.png\" alt=\"x\" /></p>\n\
<style><![CDATA[ p > a {{ color: red }} ]]></style>\n\
<svg xmlns=\"http://www.w3.org/2000/svg\"><a xlink:href=\"#x\"><text>t</text></a></svg>\n</body></html>\n"
    );
    assert_eq!(clean(doc.as_bytes()), None);
}

#[test]
fn scripts_handlers_and_script_links_go_and_the_rest_stays_byte_for_byte() {
    let doc = format!(
        "{HEAD}<body onload=\"steal()\">\n<script type=\"text/javascript\">\n//<![CDATA[\n\
if (a < b && c) {{ go(); }}\n//]]>\n</script>\n<p class=\"x\"  onclick='f()' id=\"p1\">Text &amp; more</p>\n\
<a href=\"javascript:alert(1)\" title=\"t\">link</a>\n</body></html>\n"
    );
    let out = cleaned(&doc);
    assert_eq!(
        out,
        format!(
            "{HEAD}<body>\n\n<p class=\"x\" id=\"p1\">Text &amp; more</p>\n\
<a title=\"t\">link</a>\n</body></html>\n"
        )
    );
}

#[test]
fn scripts_are_found_in_every_spelling() {
    for doc in [
        "<p>a<SCRIPT>alert(1)</SCRIPT>b</p>",
        "<p>a<h:script xmlns:h=\"http://www.w3.org/1999/xhtml\">alert(1)</h:script>b</p>",
        "<p>a<svg><script>alert(1)</script></svg>b</p>",
        "<p>a<script src=\"evil.js\"/>b</p>",
        "<p>a<script>alert(1)</script >b</p>",
    ] {
        let out = cleaned(doc);
        assert_inert(&out);
        assert!(!out.contains("alert"), "{out}");
        assert!(out.starts_with("<p>a") && out.ends_with("b</p>"), "{out}");
    }
}

#[test]
fn frames_objects_embeds_forms_and_redirects_go_with_their_content() {
    let doc = "<body><iframe src=\"x.html\">f</iframe><object data=\"e.swf\"><p>fb</p></object>\
<embed src=\"e.swf\"/><form action=\"https://evil\"><input name=\"card\"/></form>\
<meta http-equiv=\"Refresh\" content=\"0;url=https://evil\"/><base href=\"https://evil/\"/>\
<svg><a><animate attributeName=\"href\" to=\"javascript:alert(1)\"/>x</a></svg><p>kept</p></body>";
    let out = cleaned(doc);
    assert_inert(&out);
    for gone in [
        "iframe", "object", "embed", "form", "card", "meta", "base", "animate", "evil",
    ] {
        assert!(!out.contains(gone), "{gone} left in {out}");
    }
    assert!(
        out.contains("<p>kept</p>") && out.contains(">x</a>"),
        "{out}"
    );
}

#[test]
fn script_urls_go_in_any_url_attribute_and_however_encoded() {
    let doc = "<p><a href=\" JaVa&#x09;ScRiPt:alert(1)\">a</a><a xlink:href=\"javascript&colon;x\">b</a>\
<img src=\"data:text/html;base64,PHNjcmlwdD4=\"/><img src=\"data:image/png;base64,iVBO\"/>\
<button formaction=\"vbscript:x\">c</button></p>";
    let out = cleaned(doc);
    assert_inert(&out);
    assert!(
        !out.contains("vbscript") && !out.contains("text/html"),
        "{out}"
    );
    assert!(
        out.contains("<img src=\"data:image/png;base64,iVBO\"/>"),
        "{out}"
    );
}

#[test]
fn markup_that_html_reads_differently_is_rewritten() {
    for doc in [
        // HTML ends a comment at --!> (XML does not): the img would be real.
        "<p>a<!-- --!><img src=x onerror=alert(1)> -->b</p>",
        "<p>a<!--><img src=x onerror=alert(1)><!-- -->b</p>",
        // HTML reads CDATA as a comment that ends at the first >.
        "<p>a<![CDATA[ x > <img src=x onerror=alert(1)> ]]>b</p>",
        // ... and a processing instruction too (and XSLT runs in XML).
        "<?xml-stylesheet type=\"text/xsl\" href=\"x.xsl\"?><p>a<? > <img src=x onerror=alert(1)> ?>b</p>",
        // A slash or a form feed separates attributes for HTML, not for XML.
        "<p>a<img/src=x/onerror=alert(1)>b</p>",
        "<p>a<img\x0csrc=x onerror=alert(1)>b</p>",
        // Raw text elements end at </noscript> even inside a quoted value.
        "<p>a<noscript><i title=\"</noscript><img src=x onerror=alert(1)>\">i</i></noscript>b</p>",
        // Unquoted values.
        "<p>a<i title=x onclick=alert(1)>i</i>b</p>",
    ] {
        let out = cleaned(doc);
        assert_inert(&out);
        assert!(out.contains('a') && out.ends_with("b</p>"), "{out}");
    }
}

#[test]
fn an_internal_dtd_subset_goes_with_its_entities() {
    let doc = "<!DOCTYPE html [<!ENTITY x \"<img src='y' onerror='alert(1)'/>\">]><p>&x;</p>";
    let out = cleaned(doc);
    assert!(out.starts_with("<!DOCTYPE html><p>"), "{out}");
    assert!(!out.contains("ENTITY"), "{out}");
}

#[test]
fn css_stylesheet_instructions_stay() {
    let doc = "<?xml-stylesheet type=\"text/css\" href=\"s.css\"?><p>a</p>";
    assert_eq!(clean(doc.as_bytes()), None);
}

#[test]
fn an_unclosed_script_takes_the_rest_of_the_document_with_it() {
    let out = cleaned("<p>before</p><script>alert(1)<p>after</p>");
    assert_eq!(out, "<p>before</p>");
}

#[test]
fn what_follows_a_syntax_error_is_dropped() {
    let out = cleaned("<p>before</p><!-- never closed <script>alert(1)</script>");
    assert_eq!(out, "<p>before</p>");
}
