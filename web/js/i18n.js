// The message catalogue: every word on screen, in 简体中文, 繁體中文 and English.
// The language is taken from the browser, can be switched, and is remembered.

/** Languages offered: [code, name in that language]. */
export const LANGS = [['zh-Hans', '简体中文'], ['zh-Hant', '繁體中文'], ['en', 'English']];

// Each entry: [简体中文, 繁體中文, English]. `{name}` marks a parameter.
const M = {
  app_name: ['斗兽棋', '鬥獸棋', 'Jungle'],
  skip_to_content: ['跳到内容', '跳到內容', 'Skip to content'],
  nav_main: ['主导航', '主導航', 'Main navigation'],
  nav_play: ['开始下棋', '開始下棋', 'Play'],
  nav_lobby: ['大厅', '大廳', 'Lobby'],
  nav_watch: ['观战', '觀戰', 'Watch'],
  nav_leaderboard: ['排行榜', '排行榜', 'Leaderboard'],
  nav_analysis: ['分析', '分析', 'Analysis'],
  language: ['语言', '語言', 'Language'],
  sound_on: ['声音：开（点击静音）', '聲音：開（點擊靜音）', 'Sound on (click to mute)'],
  sound_off: ['声音：关（点击打开）', '聲音：關（點擊打開）', 'Sound off (click to unmute)'],
  conn_open: ['已连接', '已連線', 'Connected'],
  conn_connecting: ['正在连接…', '正在連線…', 'Connecting…'],
  conn_closed: ['连接中断，正在重连…', '連線中斷，正在重連…', 'Connection lost, reconnecting…'],
  login_register: ['登录 / 注册', '登入 / 註冊', 'Log in / Register'],
  login: ['登录', '登入', 'Log in'],
  register: ['注册', '註冊', 'Register'],
  logout: ['退出登录', '登出', 'Log out'],
  confirm_logout: ['确定要退出登录吗？', '確定要登出嗎？', 'Do you really want to log out?'],
  name: ['用户名', '使用者名稱', 'Name'],
  password: ['密码', '密碼', 'Password'],
  guest: ['游客', '訪客', 'guest'],
  guest_note: ['游客也可以直接下棋；注册后会保留你的棋局记录，并开始计分。', '訪客也可以直接下棋；註冊後會保留你的棋局紀錄，並開始計分。', 'Guests can play right away; register to keep your games and start scoring.'],
  welcome_user: ['欢迎，{name}！', '歡迎，{name}！', 'Welcome, {name}!'],

  home_title: ['斗兽棋', '鬥獸棋', 'Jungle (Dou Shou Qi)'],
  home_lead: ['象狮虎豹狗狼猫鼠，谁先进入对方兽穴谁就赢！', '象獅虎豹狗狼貓鼠，誰先進入對方獸穴誰就贏！', 'Elephant, lion, tiger, leopard, dog, wolf, cat and rat: the first to enter the other den wins!'],
  play_ai: ['和电脑下', '和電腦下', 'Play the computer'],
  ai_level: ['电脑难度', '電腦難度', 'Computer level'],
  ai_level_n: ['{n} 级', '{n} 級', 'Level {n}'],
  ai_name: ['电脑（{level} 级）', '電腦（{level} 級）', 'Computer (level {level})'],
  your_color: ['你执', '你執', 'Your side'],
  random_color: ['随机', '隨機', 'Random'],
  time_control: ['用时', '用時', 'Time control'],
  tc_none: ['不计时', '不計時', 'No clock'],
  tc_unlimited: ['不限时', '不限時', 'Unlimited'],
  tc_per_move: ['每步 {s} 秒', '每步 {s} 秒', '{s}s per move'],
  start: ['开始', '開始', 'Start'],
  play_hotseat: ['和朋友同屏下', '和朋友同屏下', 'Play a friend here'],
  hotseat_lead: ['两个人轮流用同一台设备下棋。', '兩個人輪流用同一台裝置下棋。', 'Two people take turns on this device.'],
  play_online: ['在线对战', '線上對戰', 'Play online'],
  online_lead: ['快速配对一位对手，或到大厅挑选。', '快速配對一位對手，或到大廳挑選。', 'Get paired quickly, or pick an opponent in the lobby.'],
  open_lobby: ['进入大厅', '進入大廳', 'Open the lobby'],
  howto_title: ['怎么玩？', '怎麼玩？', 'How to play'],
  howto_1: ['红方先走。每次把自己的一只动物向前、后、左、右走一格。', '紅方先走。每次把自己的一隻動物向前、後、左、右走一格。', 'Red moves first. Each turn, move one of your animals one square up, down, left or right.'],
  howto_2: ['大的吃小的：象 > 狮 > 虎 > 豹 > 狗 > 狼 > 猫 > 鼠，一样大的可以互吃。', '大的吃小的：象 > 獅 > 虎 > 豹 > 狗 > 狼 > 貓 > 鼠，一樣大的可以互吃。', 'Bigger animals take smaller ones: elephant > lion > tiger > leopard > dog > wolf > cat > rat; equal animals take each other.'],
  howto_3: ['但是老鼠可以吃大象，大象不能吃老鼠。', '但是老鼠可以吃大象，大象不能吃老鼠。', 'But the rat takes the elephant, and the elephant cannot take the rat.'],
  howto_4: ['只有老鼠能下河。狮子和老虎可以跳过河，但河里有老鼠挡着就不能跳。', '只有老鼠能下河。獅子和老虎可以跳過河，但河裡有老鼠擋著就不能跳。', 'Only the rat swims. Lion and tiger jump over the river, unless a rat is in the way.'],
  howto_5: ['走进对方陷阱的动物谁都能吃。', '走進對方陷阱的動物誰都能吃。', 'An animal in the other side\'s trap can be taken by any animal.'],
  howto_6: ['走进对方的兽穴，或吃光对方的动物，就赢了！', '走進對方的獸穴，或吃光對方的動物，就贏了！', 'Enter the other den, or take every animal, to win!'],
  resume_game: ['继续你的对局', '繼續你的對局', 'Resume your game'],
  preset_bullet: ['超快棋', '超快棋', 'Bullet'],
  preset_blitz: ['快棋', '快棋', 'Blitz'],
  preset_rapid: ['中速棋', '中速棋', 'Rapid'],
  preset_classical: ['慢棋', '慢棋', 'Classical'],
  preset_untimed: ['不计时', '不計時', 'Untimed'],

  open_seeks: ['等待中的邀请', '等待中的邀請', 'Open seeks'],
  no_seeks: ['暂时没有人在等待。创建一个邀请吧！', '暫時沒有人在等待。建立一個邀請吧！', 'Nobody is waiting right now. Create a seek!'],
  create_seek: ['创建邀请', '建立邀請', 'Create a seek'],
  seek_waiting: ['已创建邀请，正在等待对手…', '已建立邀請，正在等待對手…', 'Seek created, waiting for an opponent…'],
  quick_pairing: ['快速配对', '快速配對', 'Quick pairing'],
  challenge_friend: ['邀请好友', '邀請好友', 'Challenge a friend'],
  create_link: ['生成邀请链接', '產生邀請連結', 'Create a link'],
  challenge_link: ['把这个链接发给你的朋友：', '把這個連結傳給你的朋友：', 'Send this link to your friend:'],
  challenge_title: ['好友邀请', '好友邀請', 'A challenge'],
  challenge_from: ['{name} 邀请你下一盘斗兽棋。', '{name} 邀請你下一盤鬥獸棋。', '{name} invites you to a game of Jungle.'],
  challenge_gone: ['这个邀请已被接受或已失效。', '這個邀請已被接受或已失效。', 'This challenge was already accepted or is no longer open.'],
  accept_challenge: ['接受邀请', '接受邀請', 'Accept the challenge'],
  player: ['棋手', '棋手', 'Player'],
  mode: ['类型', '類型', 'Mode'],
  rated: ['计分', '計分', 'Rated'],
  casual: ['友谊赛', '友誼賽', 'Casual'],
  copy: ['复制', '複製', 'Copy'],
  copied: ['已复制：{what}', '已複製：{what}', 'Copied: {what}'],

  watch: ['观战', '觀戰', 'Watch'],
  no_live_games: ['现在没有正在进行的对局。', '現在沒有正在進行的對局。', 'No games are being played right now.'],
  plies: ['步数', '步數', 'Plies'],
  replay: ['回放', '回放', 'Replay'],

  score: ['积分', '積分', 'Score'],
  level: ['级别', '級別', 'Level'],
  level_n: ['{n} 级', '{n} 級', 'level {n}'],
  coins: ['金币', '金幣', 'Coins'],
  rating: ['等级分', '等級分', 'Rating'],
  games: ['对局数', '對局數', 'Games'],
  wins_losses_draws: ['胜 / 负 / 和', '勝 / 負 / 和', 'Won / lost / drawn'],
  escapes: ['逃跑次数', '逃跑次數', 'Games left'],
  disconnects: ['断线次数', '斷線次數', 'Disconnects'],
  game_history: ['对局记录', '對局紀錄', 'Game history'],
  no_games: ['还没有对局。', '還沒有對局。', 'No games yet.'],
  no_players: ['还没有棋手。', '還沒有棋手。', 'No players yet.'],
  more: ['更多', '更多', 'More'],
  date: ['日期', '日期', 'Date'],
  color: ['执子', '執子', 'Side'],
  opponent: ['对手', '對手', 'Opponent'],
  result: ['结果', '結果', 'Result'],
  reason: ['原因', '原因', 'Reason'],
  win_short: ['胜', '勝', 'Won'],
  loss_short: ['负', '負', 'Lost'],
  draw_short: ['和', '和', 'Draw'],
  live: ['进行中', '進行中', 'Live'],

  red: ['红方', '紅方', 'Red'],
  blue: ['蓝方', '藍方', 'Blue'],
  animal_E: ['象', '象', 'elephant'],
  animal_L: ['狮', '獅', 'lion'],
  animal_T: ['虎', '虎', 'tiger'],
  animal_P: ['豹', '豹', 'leopard'],
  animal_D: ['狗', '狗', 'dog'],
  animal_W: ['狼', '狼', 'wolf'],
  animal_C: ['猫', '貓', 'cat'],
  animal_R: ['鼠', '鼠', 'rat'],
  piece_label: ['{side}{animal}', '{side}{animal}', '{side} {animal}'],
  terrain_water: ['小河', '小河', 'water'],
  terrain_trap_red: ['红方陷阱', '紅方陷阱', 'Red trap'],
  terrain_trap_blue: ['蓝方陷阱', '藍方陷阱', 'Blue trap'],
  terrain_den_red: ['红方兽穴', '紅方獸穴', 'Red den'],
  terrain_den_blue: ['蓝方兽穴', '藍方獸穴', 'Blue den'],
  board: ['棋盘', '棋盤', 'Board'],
  board_label: ['斗兽棋棋盘，{side}在下方。用方向键移动，回车键选择。', '鬥獸棋棋盤，{side}在下方。用方向鍵移動，Enter 鍵選擇。', 'Jungle board, {side} at the bottom. Arrow keys move, Enter selects.'],
  legal_destination: ['可以走到这里', '可以走到這裡', 'legal destination'],
  selected: ['已选中', '已選取', 'selected'],
  type_move: ['输入着法', '輸入著法', 'Type a move'],
  play_move: ['走棋', '走棋', 'Play'],
  move_empty: ['请输入着法，例如 g3g4 或 鼠g4。', '請輸入著法，例如 g3g4 或 鼠g4。', 'Type a move, e.g. g3g4 or Rg4.'],
  move_syntax: ['看不懂这个着法。例子：g3g4、Rg4、鼠g4。', '看不懂這個著法。例子：g3g4、Rg4、鼠g4。', 'That is not a move. Examples: g3g4, Rg4, 鼠g4.'],
  move_illegal: ['这步棋不能走。', '這步棋不能走。', 'That move is not allowed.'],
  move_no_piece: ['你没有这个动物了。', '你沒有這個動物了。', 'You have no such animal.'],
  not_your_turn: ['现在不是你走棋。', '現在不是你走棋。', 'It is not your turn.'],
  moves: ['着法', '著法', 'Moves'],
  pass_short: ['停', '停', 'pass'],
  you: ['你', '你', 'you'],
  online: ['在线', '在線', 'online'],
  offline: ['已断线', '已斷線', 'disconnected'],
  captured_by: ['{side}吃掉的动物', '{side}吃掉的動物', 'Animals taken by {side}'],
  clock_of: ['{side}的局时', '{side}的局時', "{side}'s clock"],
  move_timer: ['步时', '步時', 'Move'],
  timeouts_n: ['超时 {n}/3', '超時 {n}/3', 'Timeouts {n}/3'],
  loading: ['加载中…', '載入中…', 'Loading…'],
  turn_of: ['轮到{side}走', '輪到{side}走', "{side}'s turn"],
  watching_turn: ['观战中：轮到{side}走', '觀戰中：輪到{side}走', "Watching: {side}'s turn"],
  your_turn: ['轮到你走了', '輪到你走了', 'Your turn'],
  their_turn: ['等待对手走棋…', '等待對手走棋…', "Waiting for your opponent's move…"],
  flip: ['翻转棋盘', '翻轉棋盤', 'Flip board'],
  show_ranks: ['显示大小', '顯示大小', 'Show ranks'],
  hide_ranks: ['隐藏大小', '隱藏大小', 'Hide ranks'],
  abort: ['取消对局', '取消對局', 'Abort'],
  confirm_abort: ['确定要取消这盘棋吗？不计胜负。', '確定要取消這盤棋嗎？不計勝負。', 'Abort this game? Nobody wins or loses.'],
  resign: ['认输', '認輸', 'Resign'],
  confirm_resign: ['确定要认输吗？', '確定要認輸嗎？', 'Do you really want to resign?'],
  offer_draw: ['提和', '提和', 'Offer a draw'],
  draw_offered_wait: ['已提和，等待回应', '已提和，等待回應', 'Draw offered'],
  draw_offered_by: ['{side}提议和棋', '{side}提議和棋', '{side} offers a draw'],
  draw_declined: ['对方拒绝了和棋', '對方拒絕了和棋', 'The draw offer was declined'],
  accept: ['接受', '接受', 'Accept'],
  decline: ['拒绝', '拒絕', 'Decline'],
  takeback: ['悔棋', '悔棋', 'Take back'],
  rematch: ['再来一盘', '再來一盤', 'Rematch'],
  accept_rematch: ['接受再战', '接受再戰', 'Accept the rematch'],
  rematch_offered: ['对手想再来一盘', '對手想再來一盤', 'Your opponent wants a rematch'],
  rematch_sent: ['已发出再战邀请', '已發出再戰邀請', 'Rematch offered'],
  new_game: ['新对局', '新對局', 'New game'],
  copy_fen: ['复制局面', '複製局面', 'Copy position'],
  copy_record: ['复制棋谱', '複製棋譜', 'Copy game record'],
  position_jfen: ['局面（JFEN）', '局面（JFEN）', 'Position (JFEN)'],
  game_record: ['棋谱', '棋譜', 'Game record'],
  analysis: ['分析', '分析', 'Analyse'],
  open_analysis_board: ['在分析棋盘中打开', '在分析棋盤中打開', 'Open in the analysis board'],
  analysis_board: ['分析棋盘', '分析棋盤', 'Analysis board'],
  thinking: ['电脑思考中…', '電腦思考中…', 'Thinking…'],
  no_analysis: ['这个局面没有分析（对局已结束）。', '這個局面沒有分析（對局已結束）。', 'No analysis for this position (the game is over).'],
  evaluation: ['形势', '形勢', 'Evaluation'],
  eval_for: ['以{side}的角度', '以{side}的角度', 'for {side}'],
  eval_den: ['{side}在 {n} 步内入穴', '{side}在 {n} 步內入穴', '{side} enters the den in {n}'],
  depth_n: ['深度 {n}', '深度 {n}', 'depth {n}'],
  best_line: ['最佳着法', '最佳著法', 'Best line'],
  best_moves: ['候选着法', '候選著法', 'Best moves'],
  undo: ['撤销', '撤銷', 'Undo'],
  start_position: ['初始局面', '初始局面', 'Start position'],
  load: ['载入', '載入', 'Load'],
  bad_fen: ['局面格式错误', '局面格式錯誤', 'Bad position'],
  first_move: ['第一步', '第一步', 'First move'],
  prev_move: ['上一步', '上一步', 'Previous move'],
  next_move: ['下一步', '下一步', 'Next move'],
  last_move: ['最后一步', '最後一步', 'Last move'],
  ply_of: ['第 {n} / {total} 步', '第 {n} / {total} 步', 'Ply {n} of {total}'],
  announce_move: ['{side}：{san}（{from} 到 {to}）', '{side}：{san}（{from} 到 {to}）', '{side}: {san} ({from} to {to})'],
  announce_pass: ['{side}超时，停一步', '{side}超時，停一步', '{side} timed out and passes'],

  result_wins: ['{side}胜', '{side}勝', '{side} wins'],
  result_draw: ['和棋', '和棋', 'Draw'],
  result_aborted: ['对局已取消', '對局已取消', 'Game aborted'],
  game_over_position: ['棋局已结束', '棋局已結束', 'Game over'],
  reason_den: ['进入对方兽穴', '進入對方獸穴', 'entered the den'],
  reason_wipeout: ['吃光了对方所有动物', '吃光了對方所有動物', 'took every animal'],
  reason_no_moves: ['对方无棋可走', '對方無棋可走', 'the other side could not move'],
  reason_draw_plies: ['连续 100 回合没有吃子', '連續 100 回合沒有吃子', '100 rounds without a capture'],
  reason_time: ['超时判负', '超時判負', 'out of time'],
  reason_timeouts: ['步时超时 4 次，弃权', '步時超時 4 次，棄權', 'four move timeouts: forfeit'],
  reason_resign: ['认输', '認輸', 'resignation'],
  reason_left: ['对方逃跑', '對方逃跑', 'the other player left'],
  reason_disconnect: ['对方断线未归', '對方斷線未歸', 'the other player did not come back'],
  reason_agreed: ['双方同意和棋', '雙方同意和棋', 'agreed by both players'],
  reason_aborted: ['对局取消', '對局取消', 'aborted'],
  you_won: ['你赢了！', '你贏了！', 'You won!'],
  you_lost: ['你输了', '你輸了', 'You lost'],
  casual_note: ['友谊赛不计分。', '友誼賽不計分。', 'Casual games change no score.'],
  short_game_note: ['不到 10 回合结束的对局不计分。', '不到 10 回合結束的對局不計分。', 'Games that end within 10 rounds change no score.'],
  your_changes: ['你的变化', '你的變化', 'Your changes'],

  cancel: ['取消', '取消', 'Cancel'],
  confirm: ['确定', '確定', 'Confirm'],
  close: ['关闭', '關閉', 'Close'],
  err_generic: ['出错了：{msg}', '出錯了：{msg}', 'Something went wrong: {msg}'],
  err_network: ['无法连接服务器，请稍后再试。', '無法連線伺服器，請稍後再試。', 'Cannot reach the server, try again later.'],
  err_not_found: ['找不到。', '找不到。', 'Not found.'],
  err_unauthorized: ['请先登录。', '請先登入。', 'Please log in first.'],
  err_rate_limited: ['操作太快了，请稍等。', '操作太快了，請稍等。', 'Too fast, please wait a moment.'],
  err_not_your_turn: ['现在不是你走棋。', '現在不是你走棋。', 'It is not your turn.'],
  err_not_your_game: ['这不是你的对局。', '這不是你的對局。', 'This is not your game.'],
  err_spectator: ['观战者不能走棋。', '觀戰者不能走棋。', 'Spectators cannot move.'],
  err_wrong_ply: ['棋局已更新，请再试一次。', '棋局已更新，請再試一次。', 'The game moved on, try again.'],
  err_illegal_move: ['这步棋不能走：{msg}', '這步棋不能走：{msg}', 'That move is not allowed: {msg}'],
  err_game_over: ['对局已经结束。', '對局已經結束。', 'The game is over.'],
  err_bad_request: ['请求有误：{msg}', '請求有誤：{msg}', 'Bad request: {msg}'],
  err_name_taken: ['这个用户名已经有人用了。', '這個使用者名稱已經有人用了。', 'That name is taken.'],
  err_bad_login: ['用户名或密码不对。', '使用者名稱或密碼不對。', 'Wrong name or password.'],
  err_internal: ['服务器出了点问题，请稍后再试。', '伺服器出了點問題，請稍後再試。', 'The server had a problem, try again later.'],
  err_too_large: ['消息太长。', '訊息太長。', 'Message too large.'],
  err_bad_json: ['消息格式错误。', '訊息格式錯誤。', 'Malformed message.'],
};

const INDEX = { 'zh-Hans': 0, 'zh-Hant': 1, en: 2 };
const listeners = new Set();

/** The language the browser asks for, mapped onto the three offered. */
export function browserLang() {
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const s = l.toLowerCase();
    if (/^zh-(tw|hk|mo|hant)/.test(s)) return 'zh-Hant';
    if (s.startsWith('zh')) return 'zh-Hans';
    if (s.startsWith('en')) return 'en';
  }
  return 'en';
}

let current = localStorage.getItem('jungle.lang');
if (!(current in INDEX)) current = browserLang();

/** The current language code. */
export function lang() {
  return current;
}

/** Switches the language, remembers it and tells listeners. */
export function setLang(code) {
  if (!(code in INDEX)) return;
  current = code;
  localStorage.setItem('jungle.lang', code);
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

/** Calls `fn` after every language switch. */
export function onLangChange(fn) {
  listeners.add(fn);
}

/** A message in the current language with `{param}`s filled in; `fallback` (or the key) if unknown. */
export function t(key, params = {}, fallback) {
  const entry = M[key];
  if (!entry) return fallback !== undefined ? fallback : key;
  let s = entry[INDEX[current]];
  for (const [k, v] of Object.entries(params || {})) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/** Every key of the catalogue (for tests). */
export const KEYS = Object.keys(M);
/** The raw catalogue (for tests). */
export const CATALOGUE = M;
