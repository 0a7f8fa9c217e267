-- The language of the user's Discord client, remembered from their last interaction, so that
-- DMs and reminders (which have no interaction) speak it too when /game prefs sets none.
ALTER TABLE user_prefs ADD COLUMN seen_locale TEXT;
