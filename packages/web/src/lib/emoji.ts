/**
 * The Unicode emoji of the emoji panel, in the order of a phone keyboard's "smileys and people"
 * page and the objects people use most in chat. They are characters: they go into the text.
 */
export const EMOJI: readonly string[] = [
  ...'😀😃😄😁😆😅🤣😂🙂🙃😉😊😇🥰😍🤩😘😗😚😙😋😛😜🤪😝🤑🤗🤭🤫🤔🤐🤨😐😑😶😏😒🙄😬🤥😌😔😪🤤😴😷🤒🤕🤢🤮🥵🥶🥴😵🤯🤠🥳😎🤓🧐😕😟🙁😮😯😲😳🥺😦😧😨😰😥😢😭😱😖😣😞😓😩😫🥱😤😡😠🤬😈👿💀💩🤡👻👽🤖😺😸😹😻😼😽🙀😿😾',
  ...'👋🤚✋🖖👌🤏✌🤞🤟🤘🤙👈👉👆👇☝👍👎✊👊🤛🤜👏🙌👐🤲🤝🙏💪',
  ...'❤🧡💛💚💙💜🤎🖤🤍💔💕💞💓💗💖💘💝💯💢💥💫💦💨🔥✨🌟⭐🎉🎊🎁🎂🍰☕🍵🍺🍻🥂🍉🍎🌹🌸🌈☀🌙⚡❄☔',
].map((e) => (/^[\u2600-\u27bf]$/u.test(e) ? `${e}\uFE0F` : e));
