CREATE TABLE `email_links_table` (
	`tokenHash` text PRIMARY KEY NOT NULL,
	`userId` integer NOT NULL,
	`purpose` text NOT NULL,
	`email` text NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`expiresAt` text NOT NULL,
	`usedAt` text,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_links_user_idx` ON `email_links_table` (`userId`);--> statement-breakpoint
ALTER TABLE `users_table` ADD `emailVerifiedAt` text;--> statement-breakpoint
ALTER TABLE `users_table` ADD `pendingEmail` text;