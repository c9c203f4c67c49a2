/*! slotbook embed (docs/embed.md). <script src="{PUBLIC_URL}/embed.js" data-operator="{slug}" async></script>
 * turns <a|button data-slotbook-activity="s_..."> into "Book now" (the booking pages in a modal dialog) and
 * fills <div data-slotbook-inline="s_..."> with the activity's calendar. One global (window.Slotbook), inline
 * styles only, nothing thrown into the host page. */
(function () {
  'use strict';
  var w = window;
  var d = document;
  if (w.Slotbook) return; // loaded twice: the first copy serves
  try {
    var script = d.currentScript || d.querySelector('script[data-operator][src*="/embed.js"]');
    if (!script) return;
    var base = new URL(script.src, location.href).origin;
    var operator = script.getAttribute('data-operator') || '';
    var SLUG = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,39}$/;
    var ACTIVITY = /^s_[A-Za-z0-9]{8,32}$/;
    // The frame's name tells the booking pages (embed/frame.js) whom to post their height and keys to.
    var frameName = function (mode) { return 'slotbook-embed|' + location.origin + '|' + mode; };
    var seen = typeof WeakSet === 'function' ? new WeakSet() : null;
    var modal = null;

    var css = function (el, styles) { for (var k in styles) el.style.setProperty(k, styles[k], 'important'); return el; };
    var make = function (tag, styles, attrs) {
      var el = css(d.createElement(tag), styles || {});
      for (var k in attrs || {}) el.setAttribute(k, attrs[k]);
      return el;
    };
    var pageUrl = function (el, activity) {
      var op = el.getAttribute('data-slotbook-operator') || operator;
      if (!SLUG.test(op) || !ACTIVITY.test(activity)) return null;
      return base + '/book/' + op + '/activities/' + activity;
    };
    var phone = function () { return w.matchMedia && w.matchMedia('(max-width: 600px)').matches; };

    var layout = function () {
      if (!modal) return;
      var full = phone();
      css(modal.box, full
        ? { width: '100vw', height: '100%', 'max-width': '100vw', 'max-height': '100%', 'border-radius': '0' }
        : { width: 'min(760px, calc(100vw - 32px))', height: 'min(880px, calc(100% - 48px))', 'max-width': '100vw', 'max-height': '100%', 'border-radius': '12px' });
    };

    var close = function () {
      if (!modal) return;
      var m = modal;
      modal = null;
      d.removeEventListener('keydown', m.keys, true);
      d.removeEventListener('focusin', m.focus, true);
      w.removeEventListener('resize', layout);
      d.documentElement.style.overflow = m.overflow;
      if (m.overlay.parentNode) m.overlay.parentNode.removeChild(m.overlay);
      try { if (m.opener && m.opener.focus) m.opener.focus(); } catch (e) { /* the opener is gone */ }
    };

    var open = function (url, label, opener) {
      close();
      var overlay = make('div', { position: 'fixed', top: '0', left: '0', right: '0', bottom: '0', 'z-index': '2147483000', background: 'rgba(15,23,42,.6)', display: 'flex', 'align-items': 'center', 'justify-content': 'center', margin: '0', padding: '0' });
      var box = make('div', { position: 'relative', background: '#fff', overflow: 'hidden', 'box-shadow': '0 10px 40px rgba(0,0,0,.35)', display: 'flex', 'flex-direction': 'column', margin: '0', padding: '0' },
        { role: 'dialog', 'aria-modal': 'true', 'aria-label': label });
      var bar = make('div', { display: 'flex', 'justify-content': 'flex-end', padding: '4px', background: '#fff', margin: '0' });
      var button = make('button', { font: '600 16px/1 system-ui, sans-serif', 'min-width': '44px', 'min-height': '44px', border: '0', 'border-radius': '8px', background: '#eef1f4', color: '#1b1f24', cursor: 'pointer', margin: '0', padding: '0 14px' },
        { type: 'button', 'aria-label': 'Close' });
      button.textContent = '\u00d7 Close';
      var frame = make('iframe', { flex: '1', width: '100%', border: '0', margin: '0', padding: '0', display: 'block', background: '#fff' },
        { src: url, title: label, name: frameName('modal'), allow: 'payment' });
      // Tabbing past the last or before the first element wraps around inside the dialog.
      var hidden = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', opacity: '0' };
      var start = make('span', hidden, { tabindex: '0' });
      var end = make('span', hidden, { tabindex: '0' });
      start.addEventListener('focus', function () { frame.focus(); });
      end.addEventListener('focus', function () { button.focus(); });
      bar.appendChild(button);
      box.appendChild(start); box.appendChild(bar); box.appendChild(frame); box.appendChild(end);
      overlay.appendChild(box);
      button.addEventListener('click', close);
      overlay.addEventListener('click', function (event) { if (event.target === overlay) close(); });
      modal = {
        overlay: overlay, box: box, frame: frame, opener: opener, overflow: d.documentElement.style.overflow,
        keys: function (event) { if (event.key === 'Escape' || event.key === 'Esc') { event.preventDefault(); close(); } },
        focus: function (event) { if (modal && !box.contains(event.target)) button.focus(); },
      };
      layout();
      d.documentElement.style.overflow = 'hidden';
      d.body.appendChild(overlay);
      d.addEventListener('keydown', modal.keys, true);
      d.addEventListener('focusin', modal.focus, true);
      w.addEventListener('resize', layout);
      button.focus();
    };

    var inline = function (el, url) {
      var frame = make('iframe', { width: '100%', height: '640px', border: '0', display: 'block', margin: '0', padding: '0' },
        { src: url, title: el.getAttribute('data-slotbook-title') || 'Book online', name: frameName('inline'), loading: 'lazy' });
      el.appendChild(frame);
    };

    var attach = function (el) {
      if (seen ? seen.has(el) : el.__slotbook) return;
      if (seen) seen.add(el); else el.__slotbook = 1;
      var activity = el.getAttribute('data-slotbook-activity');
      var url = pageUrl(el, activity || el.getAttribute('data-slotbook-inline') || '');
      if (!url) return;
      if (!activity) return inline(el, url);
      if (!(el.textContent || '').trim()) el.textContent = 'Book now';
      if (el.tagName === 'A' && !el.getAttribute('href')) el.setAttribute('href', url);
      el.setAttribute('aria-haspopup', 'dialog');
      el.addEventListener('click', function (event) {
        // A new tab or window (Ctrl, Cmd, Shift, middle button) keeps the link's own behaviour.
        if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.shiftKey || event.button > 0) return;
        event.preventDefault();
        open(url, 'Book: ' + ((el.textContent || '').trim() || 'activity'), el);
      });
    };

    var scan = function (root) {
      var list = (root || d).querySelectorAll('[data-slotbook-activity],[data-slotbook-inline]');
      for (var i = 0; i < list.length; i++) try { attach(list[i]); } catch (e) { /* one bad element spoils nothing */ }
    };

    // Messages from the booking pages only (their origin and one of our frames): sizes and keys.
    w.addEventListener('message', function (event) {
      var data = event.data;
      if (event.origin !== base || !data || data.slotbook !== 1) return;
      if (modal && event.source === modal.frame.contentWindow) {
        if (data.type === 'escape' || data.type === 'close') close();
        return;
      }
      var frames = d.querySelectorAll('iframe[name="' + frameName('inline') + '"]');
      for (var i = 0; i < frames.length; i++) {
        if (frames[i].contentWindow === event.source && data.type === 'resize' && typeof data.height === 'number') {
          frames[i].style.setProperty('height', Math.max(200, Math.min(20000, Math.ceil(data.height))) + 'px');
        }
      }
    });

    var start = function () {
      scan();
      // Buttons the host page adds later (a single-page app) get theirs too, one scan per burst of changes.
      var pending = 0;
      if (typeof MutationObserver === 'function') {
        new MutationObserver(function () {
          if (!pending) pending = setTimeout(function () { pending = 0; scan(); }, 50);
        }).observe(d.body, { childList: true, subtree: true });
      }
    };
    if (d.readyState === 'loading') d.addEventListener('DOMContentLoaded', start); else start();

    w.Slotbook = {
      version: 1,
      scan: scan,
      close: close,
      /** Opens an activity's booking pages in the dialog, as its button would. */
      open: function (activity, label) { var url = pageUrl(script, activity); if (url) open(url, label || 'Book online', d.activeElement); },
    };
  } catch (e) {
    if (w.console && console.warn) console.warn('slotbook embed:', e);
  }
})();
