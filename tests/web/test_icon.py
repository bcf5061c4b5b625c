"""The table's icon: linked from every page, and answered at /favicon.ico for browsers that ask there."""


def test_every_page_links_the_icon_and_favicon_ico_answers_it(client):
    page = client.get("/join").get_data(as_text=True)
    assert 'rel="icon" href="/static/icon.svg"' in page
    with client.get("/favicon.ico") as icon:
        assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
        assert icon.get_data(as_text=True).lstrip().startswith("<svg")
