"""The browser's way in (issue 33): the native messaging host the Kuaibu extension
(``browser/extension/``) talks to, and the host manifests that register it with Chromium,
Google Chrome and Firefox. No port is opened: the browser starts the host for each message
and only the extension's own id may call it."""
