// Picture-like animal icons as small inline SVGs (viewBox 0 0 40 40), drawn in the side's colour
// through CSS custom properties: --fill (head), --ink (features).

const eyes = '<circle cx="15" cy="20" r="2" fill="var(--ink)"/><circle cx="25" cy="20" r="2" fill="var(--ink)"/>';
const nose = (y = 26) => `<ellipse cx="20" cy="${y}" rx="2.4" ry="1.6" fill="var(--ink)"/>`;
const whiskers = '<path d="M8 26h7M8 29l7-2M32 26h-7M32 29l-7-2" stroke="var(--ink)" stroke-width="1" fill="none"/>';
const head = (r = 12, cy = 22) => `<circle cx="20" cy="${cy}" r="${r}" fill="var(--fill)" stroke="var(--ink)" stroke-width="1.5"/>`;

const ICONS = {
  R: `<circle cx="10" cy="12" r="6" fill="var(--fill)" stroke="var(--ink)" stroke-width="1.5"/>
      <circle cx="30" cy="12" r="6" fill="var(--fill)" stroke="var(--ink)" stroke-width="1.5"/>
      <path d="M8 22 Q20 6 32 22 Q26 36 20 36 Q14 36 8 22Z" fill="var(--fill)" stroke="var(--ink)" stroke-width="1.5"/>
      ${eyes}${nose(31)}${whiskers}`,
  C: `<path d="M8 8 L14 14 L26 14 L32 8 L32 22 A12 12 0 0 1 8 22Z" fill="var(--fill)" stroke="var(--ink)" stroke-width="1.5"/>
      ${eyes}${nose()}${whiskers}`,
  W: `<path d="M9 4 L15 15 L25 15 L31 4 L32 20 L20 37 L8 20Z" fill="var(--fill)" stroke="var(--ink)" stroke-width="1.5"/>
      ${eyes}${nose(31)}`,
  D: `${head(12)}<path d="M9 12 Q2 14 5 28 Q9 26 11 20Z M31 12 Q38 14 35 28 Q31 26 29 20Z" fill="var(--ink)"/>
      ${eyes}${nose(27)}<path d="M17 31 Q20 34 23 31" stroke="var(--ink)" fill="none" stroke-width="1.2"/>`,
  P: `<circle cx="11" cy="12" r="4" fill="var(--fill)" stroke="var(--ink)" stroke-width="1.5"/>
      <circle cx="29" cy="12" r="4" fill="var(--fill)" stroke="var(--ink)" stroke-width="1.5"/>${head(12)}
      <circle cx="14" cy="14" r="1.3" fill="var(--ink)"/><circle cx="26" cy="14" r="1.3" fill="var(--ink)"/>
      <circle cx="12" cy="27" r="1.3" fill="var(--ink)"/><circle cx="28" cy="27" r="1.3" fill="var(--ink)"/>
      <circle cx="20" cy="13" r="1.3" fill="var(--ink)"/>${eyes}${nose()}`,
  T: `<circle cx="11" cy="12" r="4" fill="var(--fill)" stroke="var(--ink)" stroke-width="1.5"/>
      <circle cx="29" cy="12" r="4" fill="var(--fill)" stroke="var(--ink)" stroke-width="1.5"/>${head(12)}
      <path d="M16 12h8M17 15h6M20 12v6M9 21h4M9 25h4M31 21h-4M31 25h-4" stroke="var(--ink)" stroke-width="1.4"/>
      ${eyes}${nose()}`,
  L: `<path d="M20 2 L24 7 L30 5 L31 11 L37 12 L35 18 L39 22 L34 26 L36 32 L30 32 L28 38 L22 35 L18 38 L14 34 L8 36 L7 30 L2 27 L6 22 L2 17 L8 14 L8 8 L14 8Z"
        fill="var(--ink)" opacity="0.85"/>${head(11)}${eyes}${nose()}
      <path d="M17 29 Q20 31 23 29" stroke="var(--ink)" fill="none" stroke-width="1.2"/>`,
  E: `<ellipse cx="8" cy="20" rx="7" ry="10" fill="var(--fill)" stroke="var(--ink)" stroke-width="1.5"/>
      <ellipse cx="32" cy="20" rx="7" ry="10" fill="var(--fill)" stroke="var(--ink)" stroke-width="1.5"/>
      ${head(10, 18)}<path d="M17 24 Q17 36 24 37 Q26 36 24 34 Q21 33 23 24Z" fill="var(--fill)" stroke="var(--ink)" stroke-width="1.5"/>
      <circle cx="16" cy="16" r="1.8" fill="var(--ink)"/><circle cx="24" cy="16" r="1.8" fill="var(--ink)"/>`,
};

/** SVG markup of the icon of an animal letter (E, L, T, P, D, W, C, R). */
export function iconSvg(role) {
  return `<svg class="icon" viewBox="0 0 40 40" aria-hidden="true" focusable="false">${ICONS[role] || ''}</svg>`;
}

/** Chinese character of each animal (simplified and traditional). */
export const CHAR = {
  'zh-Hans': { E: '象', L: '狮', T: '虎', P: '豹', D: '狗', W: '狼', C: '猫', R: '鼠' },
  'zh-Hant': { E: '象', L: '獅', T: '虎', P: '豹', D: '狗', W: '狼', C: '貓', R: '鼠' },
};
