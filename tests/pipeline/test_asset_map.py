from pipeline.store.asset_map import AssetEntry, AssetMap, rewrite_images

CONTENT = (
    'Lead text <p>猫 <img alt="一只猫" src="https://x.example/cat.jpg"/> 睡觉</p>'
    '<figure><img src="https://x.example/dog.png"/><figcaption>狗</figcaption></figure>'
)


def test_map_round_trip_and_counts() -> None:
    amap = AssetMap({
        "https://x.example/cat.jpg": AssetEntry("https://x.example/cat.jpg", "02_assets/ab/ab.jpg",
                                                width=800, height=600),
        "https://x.example/dog.png": AssetEntry("https://x.example/dog.png", error="HTTP 404"),
    })
    again = AssetMap.from_json(amap.to_json())
    assert again == amap
    assert (again.total, again.ok) == (2, 1)


def test_rewrite_points_at_local_files_and_marks_missing() -> None:
    local = {"https://x.example/cat.jpg": "../02_assets/ab/ab.jpg"}
    out = rewrite_images(CONTENT, local.get, "zh-CN")
    assert out.startswith("Lead text <p>猫 ")
    assert '<img alt="一只猫" src="../02_assets/ab/ab.jpg"> 睡觉</p>' in out
    assert ('<span class="missing-image">[图片未能保存] <a href="https://x.example/dog.png">'
            in out)
    assert "<figcaption>狗</figcaption>" in out
    assert 'src="https://' not in out


def test_placeholder_in_english_keeps_alt_and_never_links_other_schemes() -> None:
    out = rewrite_images('<p><img alt="A map" src="javascript:alert(1)"></p>', lambda u: None, "en")
    assert out == '<p><span class="missing-image">[Image not saved: A map] </span></p>'


def test_only_a_placeholder_wears_the_placeholder_class() -> None:
    """A page's own list claiming the class would be laid out as nested inline-blocks."""
    out = rewrite_images('<ul class="missing-image x"><li class="missing-image">a'
                         '<img src="https://x.example/gone.png"></li></ul>', lambda u: None, "en")
    assert out.count('class="missing-image"') == 1
    assert out.startswith('<ul class="x"><li class="">a<span class="missing-image">')
