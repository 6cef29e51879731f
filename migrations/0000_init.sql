CREATE TABLE `todo_attachments_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`todoId` integer NOT NULL,
	`fileKey` text NOT NULL,
	`filePath` text NOT NULL,
	`fileSize` integer NOT NULL,
	`fileHash` text NOT NULL,
	`fileName` text NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updatedAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`todoId`) REFERENCES `todos_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `todo_attachments_todo_file_unique` ON `todo_attachments_table` (`todoId`,`fileKey`);--> statement-breakpoint
CREATE TABLE `todos_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`userId` integer NOT NULL,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`completed` integer DEFAULT false NOT NULL,
	`scheduleAt` text,
	`completedAt` text,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updatedAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `todos_user_id_idx` ON `todos_table` (`userId`,`id`);--> statement-breakpoint
CREATE INDEX `todos_user_completed_id_idx` ON `todos_table` (`userId`,`completed`,`id`);--> statement-breakpoint
CREATE TABLE `user_credentials_table` (
	`userId` integer PRIMARY KEY NOT NULL,
	`passwordHash` text NOT NULL,
	`updatedAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE cascade ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `users_table` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`usernameKey` text NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`age` integer,
	`role` text DEFAULT 'user' NOT NULL,
	`createdAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updatedAt` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_key_unique` ON `users_table` (`usernameKey`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users_table` (`email`);