CREATE TABLE `passkeys_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`userId` integer NOT NULL,
	`credentialId` text NOT NULL,
	`publicKey` text NOT NULL,
	`userHandle` text NOT NULL,
	`counter` integer DEFAULT 0 NOT NULL,
	`transports` text NOT NULL,
	`deviceType` text NOT NULL,
	`backedUp` integer NOT NULL,
	`name` text NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`lastUsedAt` text,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `passkeys_credential_id_unique` ON `passkeys_table` (`credentialId`);--> statement-breakpoint
CREATE INDEX `passkeys_user_idx` ON `passkeys_table` (`userId`,`id`);--> statement-breakpoint
CREATE TABLE `used_passkey_challenges_table` (
	`challenge` text PRIMARY KEY NOT NULL,
	`expiresAt` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `used_passkey_challenges_expires_idx` ON `used_passkey_challenges_table` (`expiresAt`);