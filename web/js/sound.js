// Sounds made with WebAudio (no audio files): move, capture, low time, game end.

let ctx = null;
let muted = localStorage.getItem('jungle.muted') === '1';

/** Whether sounds are off. */
export function isMuted() {
  return muted;
}

/** Switches sounds on or off; remembered in localStorage. */
export function setMuted(m) {
  muted = Boolean(m);
  localStorage.setItem('jungle.muted', muted ? '1' : '0');
}

function tone(freq, start, dur, type = 'sine', gain = 0.15) {
  const o = ctx.createOscillator();
  const g = ctx.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, ctx.currentTime + start);
  g.gain.setValueAtTime(0.0001, ctx.currentTime + start);
  g.gain.exponentialRampToValueAtTime(gain, ctx.currentTime + start + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + dur);
  o.connect(g).connect(ctx.destination);
  o.start(ctx.currentTime + start);
  o.stop(ctx.currentTime + start + dur + 0.02);
}

/** Plays one of 'move', 'capture', 'low', 'end', 'start'. */
export function play(kind) {
  if (muted) return;
  try {
    if (!ctx) ctx = new (window.AudioContext || window.webkitAudioContext)();
    if (ctx.state === 'suspended') ctx.resume();
    switch (kind) {
      case 'move': tone(520, 0, 0.08, 'triangle'); break;
      case 'capture': tone(300, 0, 0.09, 'square', 0.08); tone(180, 0.07, 0.14, 'square', 0.08); break;
      case 'low': tone(880, 0, 0.06, 'sine', 0.1); break;
      case 'end': tone(523, 0, 0.15); tone(659, 0.15, 0.15); tone(784, 0.3, 0.3); break;
      case 'start': tone(440, 0, 0.1); tone(660, 0.1, 0.12); break;
      default: break;
    }
  } catch {
    // Audio is a nicety: a browser without WebAudio just stays silent.
  }
}
