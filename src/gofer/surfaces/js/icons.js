// The words an icon set writes for the shape it draws, for a control with no other name.
// An icon set writes the shape in a class or a sprite's id ("lucide lucide-plus",
// "fa-solid fa-trash", "#icon-close"): the words after the set's prefix, without the
// words of its styles and sizes (and of layout classes beside them).
;(() => {
  const g = window.__gofer;
  if (!g || g.iconWords) return;
  const EP = Element.prototype;
  const attr = (el, name) => EP.getAttribute.call(el, name);
  const matches = (el, sel) => EP.matches.call(el, sel);
  const queryAll = (el, sel) => EP.querySelectorAll.call(el, sel);
  const STYLES = new Set(["icon", "icons", "svg", "solid", "regular", "light", "thin",
    "duotone", "brands", "outline", "outlined", "filled", "fill", "round", "rounded", "sharp",
    "fw", "lg", "sm", "xs", "xl", "inline", "glyph", "symbol", "symbols", "material", "mini",
    "micro", "stroke", "twotone", "spin", "pulse", "fixed", "width", "size", "flip", "auto",
    "current", "none", "full", "center", "hidden", "block", "flex", "shrink", "grow"]);
  const shape = (token) => {
    const parts = token.toLowerCase().split(/[-_]+/).filter(Boolean);
    if (parts.length < 2 || !/^[a-z]+$/.test(parts[0])) return "";
    return parts.slice(1).filter((w) => /^[a-z]+$/.test(w) && !STYLES.has(w)).join(" ");
  };
  const classOf = (el) => {
    const c = el.className;
    return typeof c === "string" ? c : (c && c.baseVal) || "";
  };
  const ICON = "svg, i, span, use";
  g.iconWords = (el) => {
    // the drawn icon before a box around it ("v-btn__content" around "mdi-chevron-right")
    const found = Array.from(queryAll(el, ICON));
    const leaf = (n) => matches(n, "svg, svg *") || !EP.querySelector.call(n, ICON);
    for (const icon of [...found.filter(leaf), ...found.filter((n) => !leaf(n))]) {
      const inSvg = matches(icon, "svg, svg *");
      if (!inSvg && (icon.textContent || "").trim()) continue;
      const sprite = matches(icon, "use") ? attr(icon, "href") || attr(icon, "xlink:href") : "";
      if (sprite && sprite.includes("#")) {
        const words = shape("x-" + sprite.split("#").pop());
        if (words) return words;
      }
      const tokens = classOf(icon).split(/\s+/).filter(Boolean);
      const heads = tokens.map((t) => t.toLowerCase().split(/[-_]/)[0]);
      // first a token whose prefix also stands alone ("lucide lucide-plus") or says
      // icon ("icon-close"); then, in an <i> or after a short prefix ("bi-x-lg"), any
      const sure = (i) => tokens.includes(heads[i]) || heads[i].includes("icon");
      const likely = (i) => matches(icon, "i") || heads[i].length <= 3;
      for (const marked of [sure, likely]) {
        for (let i = 0; i < tokens.length; i++) {
          const words = marked(i) ? shape(tokens[i]) : "";
          if (words) return words;
        }
      }
    }
    return "";
  };
})();
