/*! slotbook booking pages inside the embed (docs/embed.md): tells the embedding page this page's height
 * (inline mode) and that Escape was pressed (the dialog closes), posting only to the origin the embed named
 * in the frame's name, which a frame keeps while its pages change. Does nothing outside an embed. */
(function () {
  'use strict';
  try {
    var match = /^slotbook-embed\|(https?:\/\/[^|/]+)\|(modal|inline)$/.exec(window.name || '');
    if (!match || window.parent === window) return;
    var target = match[1];
    var last = 0;
    var post = function (message) { message.slotbook = 1; window.parent.postMessage(message, target); };
    var size = function () {
      var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (height !== last) { last = height; post({ type: 'resize', height: height }); }
    };
    document.documentElement.setAttribute('data-embed', match[2]);
    if (typeof ResizeObserver === 'function') new ResizeObserver(size).observe(document.documentElement);
    window.addEventListener('load', size);
    // On keyup, once the key is done: the dialog then removes this frame, which must not happen while
    // the browser is still delivering the key to it.
    document.addEventListener('keyup', function (event) {
      if (event.key === 'Escape' && !event.defaultPrevented && match[2] === 'modal') post({ type: 'escape' });
    });
    size();
  } catch (e) {
    /* an embed that cannot size itself still works */
  }
})();
