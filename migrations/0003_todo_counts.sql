CREATE TABLE `todo_counts_table` (
	`userId` integer PRIMARY KEY NOT NULL,
	`total` integer NOT NULL,
	`completed` integer NOT NULL,
	FOREIGN KEY (`userId`) REFERENCES `users_table`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Backfill from the todos already stored; from here on the triggers below keep the counts.
INSERT INTO `todo_counts_table` (`userId`, `total`, `completed`)
SELECT `userId`, count(*), sum(`completed` <> 0) FROM `todos_table` GROUP BY `userId`;
--> statement-breakpoint
CREATE TRIGGER `todo_counts_after_insert` AFTER INSERT ON `todos_table` BEGIN
	INSERT INTO `todo_counts_table` (`userId`, `total`, `completed`) VALUES (NEW.`userId`, 1, NEW.`completed` <> 0)
	ON CONFLICT (`userId`) DO UPDATE SET `total` = `total` + 1, `completed` = `completed` + excluded.`completed`;
END;
--> statement-breakpoint
-- Never inserts: a todo deleted by its user's cascade must not bring the user's row back. The row
-- goes when its total reaches 0, so it exists only while the user has todos.
CREATE TRIGGER `todo_counts_after_delete` AFTER DELETE ON `todos_table` BEGIN
	UPDATE `todo_counts_table` SET `total` = `total` - 1, `completed` = `completed` - (OLD.`completed` <> 0)
	WHERE `userId` = OLD.`userId`;
	DELETE FROM `todo_counts_table` WHERE `userId` = OLD.`userId` AND `total` = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `todo_counts_after_update` AFTER UPDATE OF `userId`, `completed` ON `todos_table`
WHEN OLD.`userId` IS NOT NEW.`userId` OR (OLD.`completed` <> 0) IS NOT (NEW.`completed` <> 0) BEGIN
	UPDATE `todo_counts_table` SET `total` = `total` - 1, `completed` = `completed` - (OLD.`completed` <> 0)
	WHERE `userId` = OLD.`userId`;
	DELETE FROM `todo_counts_table` WHERE `userId` = OLD.`userId` AND `total` = 0;
	INSERT INTO `todo_counts_table` (`userId`, `total`, `completed`) VALUES (NEW.`userId`, 1, NEW.`completed` <> 0)
	ON CONFLICT (`userId`) DO UPDATE SET `total` = `total` + 1, `completed` = `completed` + excluded.`completed`;
END;
