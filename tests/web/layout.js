// The layout check of tests/web/layout.py, run in the page with the names to look for.
(names) => {
  const SELECTORS = [
    '.app-header .btn', '.app-header .brand', '#lang', '.match-bar .btn', '.score-len',
    '.score-num', '.match-bar .badge', '.match-bar-end > *', '.seat .chip', '.seat-name',
    '.seat-stats .pips', '.seat-stats .badge', '.clock.running', '.talk-bubble',
    '.tap-roll-hint:not(.hidden)', '#main svg.board g.cube', '.controls .btn',
    '.autoplay-banner:not(.hidden) > *', '.talk-bar .btn', '.toast', '.dialog h2',
    '.dialog .dialog-actions .btn', '#status-line',
  ];
  const ONE_LINE = '.btn, .badge, .match-bar *, .seat-name, .clock, .talk-bubble, #lang';
  const header = document.querySelector('.app-header');
  const under = header ? header.getBoundingClientRect().bottom : 0;
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (header && !header.contains(el) && r.top < under - 1) return false; // scrolled under it
    const style = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && style.display !== 'none'
      && !el.closest('.hidden') && r.bottom > 0 && r.top < innerHeight;
  };
  const items = [];
  for (const selector of SELECTORS) {
    for (const el of document.querySelectorAll(selector)) {
      if (!visible(el) || items.some((i) => i.el === el)) continue;
      const text = (el.textContent || el.getAttribute('aria-label') || el.tagName).trim();
      items.push({ el, what: `${selector} "${text.slice(0, 40)}"` });
    }
  }
  const problems = [];
  const inDialog = (el) => !!el.closest('.backdrop');
  const floating = (el) => !!el.closest('body > .toasts');
  const scrolled = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      if (/auto|scroll/.test(getComputedStyle(p).overflowX)) return true;
    }
    return false;
  };
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i].el, b = items[j].el;
      if (a.contains(b) || b.contains(a)) continue;
      if (inDialog(a) !== inDialog(b) && !floating(a) && !floating(b)) continue;
      const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
      const x = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const y = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (x > 1 && y > 1) problems.push(`overlap: ${items[i].what} and ${items[j].what}`);
    }
  }
  for (const { el, what } of items) {
    if (el instanceof SVGElement) continue;
    const r = el.getBoundingClientRect();
    if ((r.left < -1 || r.right > innerWidth + 1) && !scrolled(el)) problems.push(`off screen: ${what}`);
    if (el.scrollWidth > el.clientWidth + 1 && !el.classList.contains('seat-name') && el.tagName !== 'SELECT') {
      problems.push(`cut: ${what} (${el.scrollWidth} > ${el.clientWidth})`);
    }
    if (el.matches(ONE_LINE) && el.tagName !== 'SELECT') {
      const range = document.createRange();
      range.selectNodeContents(el);
      const boxes = [...range.getClientRects()].filter((q) => q.width > 0).sort((a, b) => a.top - b.top);
      let lines = 0, bottom = -Infinity;
      for (const q of boxes) {
        if (q.top >= bottom - 2) lines++;
        bottom = Math.max(bottom, q.bottom);
      }
      if (lines > 1) problems.push(`wrapped: ${what}`);
    }
    if (el.tagName === 'SELECT') {
      const canvas = document.createElement('canvas').getContext('2d');
      const style = getComputedStyle(el);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const label = el.options[el.selectedIndex].text;
      const arrow = 20; // Chromium draws the select's arrow inside its content box
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow;
      if (canvas.measureText(label).width > room + 1) problems.push(`cut: ${what} "${label}"`);
    }
  }
  const shownNames = [];
  for (const name of names) {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent.indexOf(name);
      const holder = node.parentElement;
      if (at < 0 || !holder || !visible(holder) || holder.closest('.backdrop, #log, .talk-bar, .sr-only')) continue; // .sr-only: for screen readers, never seen
      let clip = holder;
      while (clip && getComputedStyle(clip).overflow === 'visible') clip = clip.parentElement;
      const edge = (clip || holder).getBoundingClientRect();
      let seen = 0;
      const range = document.createRange();
      for (let k = 0; k < name.length; k++) {
        range.setStart(node, at + k);
        range.setEnd(node, at + k + 1);
        const box = range.getBoundingClientRect();
        if (box.right <= edge.right + 0.5 && box.left >= edge.left - 0.5) seen++;
      }
      shownNames.push([name, seen]);
      if (seen < Math.min(8, name.length)) problems.push(`name cut: "${name}" shows ${seen} characters`);
    }
  }
  return { problems, shownNames, count: items.length };
}
