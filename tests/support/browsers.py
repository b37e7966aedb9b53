"""One Chromium for a pytest process's browser test modules, one after another (tests/browser/
conftest.py: `browser`), instead of one launched per module (a second or two each).

Playwright's sync API keeps an event loop running while it is open, which would break the
asyncio.run() of a socket test: the browser is closed before the first test that is not a
browser test (tests/conftest.py: pytest_runtest_setup), and at the end of the session."""

from __future__ import annotations

from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]

_open: tuple[Any, Any] | None = None  # (Playwright, Browser)


def shared_browser() -> Any:
    """The process's Chromium, launched on first use."""
    global _open
    if _open is None:
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        try:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        except BaseException:
            playwright.stop()
            raise
        _open = (playwright, browser)
    return _open[1]


def close_pages(browser: Any) -> None:
    """Close every context a module opened (its pages, their sockets), as closing the browser
    would: none outlives its module's servers."""
    for context in list(browser.contexts):
        context.close()


def close_browser() -> None:
    global _open
    if _open is not None:
        playwright, browser = _open
        _open = None
        try:
            browser.close()
        finally:
            playwright.stop()
