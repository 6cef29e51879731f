CREATE TABLE `api_keys_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`userId` integer NOT NULL,
	`name` text NOT NULL,
	`keyHash` text NOT NULL,
	`lastFour` text NOT NULL,
	`scopes` text NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`lastUsedAt` text,
	`expiresAt` text,
	`revokedAt` text,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_unique` ON `api_keys_table` (`keyHash`);--> statement-breakpoint
CREATE INDEX `api_keys_user_idx` ON `api_keys_table` (`userId`,`id`);--> statement-breakpoint
CREATE TABLE `password_resets_table` (
	`tokenHash` text PRIMARY KEY NOT NULL,
	`userId` integer NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`expiresAt` text NOT NULL,
	`usedAt` text,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `password_resets_user_idx` ON `password_resets_table` (`userId`);--> statement-breakpoint
CREATE TABLE `refresh_tokens_table` (
	`tokenHash` text PRIMARY KEY NOT NULL,
	`sessionId` text NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`rotatedAt` text,
	FOREIGN KEY (`sessionId`) REFERENCES `sessions_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `refresh_tokens_session_idx` ON `refresh_tokens_table` (`sessionId`);--> statement-breakpoint
CREATE TABLE `sessions_table` (
	`id` text PRIMARY KEY NOT NULL,
	`userId` integer NOT NULL,
	`userAgent` text,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`lastUsedAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`expiresAt` text NOT NULL,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions_table` (`userId`,`lastUsedAt`);