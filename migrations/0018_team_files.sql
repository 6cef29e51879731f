CREATE TABLE `org_storage_usage_table` (
	`orgId` integer PRIMARY KEY NOT NULL,
	`bytes` integer NOT NULL,
	`files` integer NOT NULL,
	FOREIGN KEY (`orgId`) REFERENCES `orgs_table`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `uploads_table` ADD `orgId` integer;--> statement-breakpoint
ALTER TABLE `files_table` ADD `orgId` integer REFERENCES orgs_table(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `files_org_id_idx` ON `files_table` (`orgId`,`id`);--> statement-breakpoint
ALTER TABLE `storage_reservations_table` ADD `orgId` integer REFERENCES orgs_table(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `storage_reservations_org_idx` ON `storage_reservations_table` (`orgId`,`expiresAt`);--> statement-breakpoint
ALTER TABLE `deleted_files_table` ADD `orgId` integer REFERENCES orgs_table(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `deleted_files_org_idx` ON `deleted_files_table` (`orgId`);;--> statement-breakpoint
-- Added by hand (drizzle-kit writes the REFERENCES above without their ON DELETE, also added by hand).
-- A team's files count in the team's usage, never in their uploader's: the user triggers of
-- 0005_files.sql now skip team files, and these keep org_storage_usage_table the same way.
DROP TRIGGER `storage_usage_after_insert`;--> statement-breakpoint
DROP TRIGGER `storage_usage_after_delete`;--> statement-breakpoint
CREATE TRIGGER `storage_usage_after_insert` AFTER INSERT ON `files_table` WHEN NEW.`orgId` IS NULL BEGIN
	INSERT INTO `storage_usage_table` (`userId`, `bytes`, `files`) VALUES (NEW.`userId`, NEW.`size`, 1)
	ON CONFLICT (`userId`) DO UPDATE SET `bytes` = `bytes` + excluded.`bytes`, `files` = `files` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `storage_usage_after_delete` AFTER DELETE ON `files_table` WHEN OLD.`orgId` IS NULL BEGIN
	UPDATE `storage_usage_table` SET `bytes` = `bytes` - OLD.`size`, `files` = `files` - 1
	WHERE `userId` = OLD.`userId`;
	DELETE FROM `storage_usage_table` WHERE `userId` = OLD.`userId` AND `files` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `org_storage_usage_after_insert` AFTER INSERT ON `files_table` WHEN NEW.`orgId` IS NOT NULL BEGIN
	INSERT INTO `org_storage_usage_table` (`orgId`, `bytes`, `files`) VALUES (NEW.`orgId`, NEW.`size`, 1)
	ON CONFLICT (`orgId`) DO UPDATE SET `bytes` = `bytes` + excluded.`bytes`, `files` = `files` + 1;
END;
--> statement-breakpoint
-- Never inserts, as for users: a file deleted by its team's cascade must not bring the team's row back.
CREATE TRIGGER `org_storage_usage_after_delete` AFTER DELETE ON `files_table` WHEN OLD.`orgId` IS NOT NULL BEGIN
	UPDATE `org_storage_usage_table` SET `bytes` = `bytes` - OLD.`size`, `files` = `files` - 1
	WHERE `orgId` = OLD.`orgId`;
	DELETE FROM `org_storage_usage_table` WHERE `orgId` = OLD.`orgId` AND `files` = 0;
END;
