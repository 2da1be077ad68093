/** The emoji a message's long-press menu offers first (WeChat's and Telegram's most used), as the emoji panel writes them. */
export const QUICK_REACTIONS: readonly string[] = ['👍', '❤️', '😂', '😮', '😢', '🙏'];
