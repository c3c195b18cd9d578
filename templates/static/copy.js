/*
 * copy.js — the context page's "Copy context" button (templates/context.html).
 *
 * The pack's text is on disk once, in <id>.pack.md (the bytes `devcontext pack` prints).
 * Over http(s) the button fetches it and writes it to the clipboard. From file://, where no
 * script may read a local file (fetch, XHR and a framed file are all refused), it loads
 * <id>.pack.js — the same bytes deflated (zlib) and in base64, which it hands to
 * window.devcontextPack — inflates them with the browser's DecompressionStream, and writes
 * the text to the clipboard and into a read-only text area, selected, to copy by hand
 * should the clipboard refuse. Whenever the clipboard refuses, the text area is the answer.
 * No network beyond the site's own files, no inline handlers, no third-party code.
 *
 * Button wiring: button.copy-context with data-pack (the pack's URL, relative to the page),
 * data-pack-script (the script's URL), data-pack-name (the name the script delivers under),
 * data-target (the text area's id), data-status (the id of a status line), and what the
 * status says, in the page's language: data-say-copied, data-say-copied-below,
 * data-say-select, data-say-failed ({file}: the pack file to open instead).
 */
(function () {
  "use strict";

  /** pack name -> the resolve of the load waiting for it. */
  const waiting = new Map();

  /** Called by a loaded <id>.pack.js with the pack's bytes, deflated and in base64. */
  window.devcontextPack = function (name, packed) {
    const resolve = waiting.get(name);
    if (resolve) {
      waiting.delete(name);
      resolve(packed);
    }
  };

  /** The pack's text from its script's base64 of zlib-deflated UTF-8. */
  function inflate(packed) {
    if (typeof DecompressionStream !== "function") {
      return Promise.reject(new Error("this browser has no DecompressionStream"));
    }
    const binary = atob(packed);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return new Response(stream).arrayBuffer().then(function (buffer) {
      return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(buffer);
    });
  }

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
          text = await inflate(await fromScript(button.dataset.packScript, button.dataset.packName));
        } catch (err) {
          console.warn("copy.js: " + err.message);
          say(button.dataset.sayFailed.replace("{file}", button.dataset.packName));
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
        say(button.dataset.sayCopied);
        return;
      }
      if (area) showText(area, text);
      say(copied ? button.dataset.sayCopiedBelow : button.dataset.saySelect);
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
