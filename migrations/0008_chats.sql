CREATE TABLE `chats_table` (
	`id` text PRIMARY KEY NOT NULL,
	`userId` integer NOT NULL,
	`title` text,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`lastActivityAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`lastMessageAt` text,
	`preview` text,
	`messageCount` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chats_user_activity_idx` ON `chats_table` (`userId`,`lastActivityAt`,`id`);--> statement-breakpoint
CREATE TABLE `pending_agent_wipes_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`erasureId` text NOT NULL,
	`agent` text NOT NULL,
	`name` text NOT NULL
);
