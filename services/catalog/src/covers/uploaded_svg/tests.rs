//! What an uploaded SVG cover keeps and what it loses.

use super::rebuild;

fn rebuilt(svg: &str) -> String {
    String::from_utf8(rebuild(svg.as_bytes()).unwrap()).unwrap()
}

#[test]
fn a_drawn_cover_keeps_its_picture() {
    let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"600\" height=\"900\" viewBox=\"0 0 600 900\">\
<defs><linearGradient id=\"g\"><stop offset=\"0\" stop-color=\"#123\"/></linearGradient></defs>\
<style>.t { fill: #fff; font-family: 'Georgia', serif }</style>\
<rect width=\"600\" height=\"900\" fill=\"url(#g)\"/>\
<g fill=\"#e8c872\" font-family=\"Georgia, 'Times New Roman', serif\" text-anchor=\"middle\">\
<text x=\"300\" y=\"260\" class=\"t\">Tom &amp; Jerry &lt;3</text></g></svg>";
    let out = rebuilt(svg);
    for kept in [
        "viewBox=\"0 0 600 900\"",
        "fill=\"url(#g)\"",
        "<stop offset=\"0\" stop-color=\"#123\"/>",
        "<style>.t { fill: #fff; font-family: 'Georgia', serif }</style>",
        "font-family=\"Georgia, &apos;Times New Roman&apos;, serif\"",
        ">Tom &amp; Jerry &lt;3</text>",
    ] {
        assert!(out.contains(kept), "{kept} is lost: {out}");
    }
    assert!(out.starts_with(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><svg xmlns=\"http://www.w3.org/2000/svg\""
    ));
}

#[test]
fn scripts_handlers_links_and_foreign_content_are_left_out() {
    let svg = "<?xml-stylesheet type=\"text/xsl\" href=\"x.xsl\"?><svg xmlns=\"http://www.w3.org/2000/svg\" \
xmlns:xlink=\"http://www.w3.org/1999/xlink\" onload=\"alert(1)\">\
<script>alert(2)</script><SCRIPT>alert(3)</SCRIPT><!-- <script>alert(4)</script> -->\
<a href=\"javascript:alert(5)\"><rect width=\"1\" height=\"1\" onclick=\"alert(6)\"/></a>\
<foreignObject><iframe xmlns=\"http://www.w3.org/1999/xhtml\" src=\"javascript:alert(7)\"/></foreignObject>\
<use xlink:href=\"https://evil.example/x.svg#a\"/><use href=\"#ok\"/>\
<image href=\"data:image/svg+xml,&lt;svg onload='alert(8)'/&gt;\"/><image href=\"data:image/png;base64,iVBO\"/>\
<rect fill=\"url(https://evil.example/t.svg#p)\" style=\"background:url(https://evil.example/t)\" width=\"2\" height=\"2\"/>\
<style>@import url(https://evil.example/x.css);</style>\
<set attributeName=\"href\" to=\"javascript:alert(9)\"/><animate attributeName=\"onclick\"/>\
<x:script xmlns:x=\"http://www.w3.org/2000/svg\">alert(10)</x:script></svg>";
    let out = rebuilt(svg);
    for gone in [
        "alert",
        "script",
        "javascript",
        "evil",
        "iframe",
        "foreignObject",
        "<a",
        "set",
        "animate",
        "xsl",
        "onclick",
        "onload",
        "<!--",
    ] {
        assert!(!out.contains(gone), "{gone} is still in {out}");
    }
    assert!(out.contains("<use href=\"#ok\"/>"), "{out}");
    assert!(
        out.contains("<image href=\"data:image/png;base64,iVBO\"/>"),
        "{out}"
    );
}

#[test]
fn what_is_not_a_clean_svg_document_is_refused() {
    for bad in [
        "<svg><rect></svg>",
        "<html><body>hi</body></html>",
        "<!DOCTYPE svg [<!ENTITY a \"aaaaaaaaaa\">]><svg>&a;</svg>",
        "<svg>&nbsp;</svg>",
        "<g/>",
    ] {
        assert!(rebuild(bad.as_bytes()).is_err(), "{bad}");
    }
    assert!(rebuild(&[0xff, 0xfe, b'<', 0]).is_err());
}
