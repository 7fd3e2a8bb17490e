-- Every action names its kind in `type` (issue 57): the Rumis actions logged before
-- without one, {"move": …} and {"stone": …, "cells": …}, become `rumis_move` and
-- `rumis_place`. Rummikub's had a type already.
UPDATE rumi_actions
SET action = jsonb_build_object('type', 'rumis_move', 'move', action::jsonb -> 'move')::text
WHERE NOT (action::jsonb ? 'type') AND action::jsonb ? 'move';
UPDATE rumi_actions
SET action = jsonb_build_object(
    'type', 'rumis_place',
    'stone', action::jsonb -> 'stone',
    'cells', action::jsonb -> 'cells'
)::text
WHERE NOT (action::jsonb ? 'type') AND action::jsonb ? 'stone';
