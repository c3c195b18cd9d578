/*
 * copy.js — the context page's "Copy context" button (templates/context.html).
 *
 * Over http(s) the button fetches the pack (<id>.pack.md, the bytes `devcontext pack`
 * prints) and writes it to the clipboard. From file://, where fetch() of a local file fails
 * and a framed file cannot be read by script, it loads <id>.pack.js — the same text as a
 * script, which hands it to window.devcontextPack — and fills a read-only text area with it,
 * selected, to copy by hand (and tries the clipboard too). The pack is not embedded in the
 * page: it is about as large as the page, and the script is loaded only on that path.
 * Whenever the clipboard refuses, the text area is the answer. No network beyond the site's
 * own files, no inline handlers, no third-party code.
 *
 * Button wiring: button.copy-context with data-pack (the pack's URL, relative to the page),
 * data-pack-script (the script's URL), data-pack-name (the name the script delivers under),
 * data-target (the text area's id) and data-status (the id of a status line).
 */
(function () {
  "use strict";

  /** pack name -> the resolve of the load waiting for it. */
  const waiting = new Map();

  /** Called by a loaded <id>.pack.js. */
  window.devcontextPack = function (name, text) {
    const resolve = waiting.get(name);
    if (resolve) {
      waiting.delete(name);
      resolve(text);
    }
  };

  function fromScript(src, name) {
    return new Promise(function (resolve, reject) {
      waiting.set(name, resolve);
      const script = document.createElement("script");
      script.src = src;
      script.addEventListener("error", function () {
        waiting.delete(name);
        reject(new Error("the pack's script " + src + " could not be loaded"));
      });
      script.addEventListener("load", function () {
        if (waiting.delete(name)) reject(new Error(src + " did not deliver the pack " + name));
        script.remove();
      });
      document.head.appendChild(script);
    });
  }

  function fromUrl(href) {
    return fetch(href, { cache: "no-cache" }).then(function (response) {
      if (!response.ok) throw new Error(href + ": HTTP " + response.status);
      return response.text();
    });
  }

  function toClipboard(text) {
    if (!navigator.clipboard || !navigator.clipboard.writeText) {
      return Promise.reject(new Error("no clipboard API here"));
    }
    return navigator.clipboard.writeText(text);
  }

  function showText(area, text) {
    area.value = text;
    area.hidden = false;
    area.focus();
    area.select();
    area.scrollTop = 0;
  }

  async function copy(button) {
    const area = document.getElementById(button.dataset.target);
    const status = document.getElementById(button.dataset.status);
    const say = function (words) { if (status) status.textContent = words; };
    const overHttp = location.protocol === "http:" || location.protocol === "https:";
    let text = null;
    button.disabled = true;
    try {
      if (overHttp) {
        try {
          text = await fromUrl(button.dataset.pack);
        } catch (err) {
          text = null; // a host that does not serve the file: the script may still load
        }
      }
      if (text === null) {
        try {
          text = await fromScript(button.dataset.packScript, button.dataset.packName);
        } catch (err) {
          say("The pack could not be loaded here (" + err.message + "): open the pack file and copy it.");
          return;
        }
      }
      let copied = false;
      try {
        await toClipboard(text);
        copied = true;
      } catch (err) {
        copied = false;
      }
      if (copied && overHttp) {
        if (area) area.hidden = true;
        say("Copied the context to the clipboard.");
        return;
      }
      if (area) showText(area, text);
      say(copied ? "Copied the context to the clipboard; it is also below."
                 : "The clipboard is not reachable from here: the context is selected below, copy it (Ctrl+C / ⌘C).");
    } finally {
      button.disabled = false;
    }
  }

  function wire() {
    document.querySelectorAll("button.copy-context").forEach(function (button) {
      button.addEventListener("click", function () { copy(button); });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();
})();
