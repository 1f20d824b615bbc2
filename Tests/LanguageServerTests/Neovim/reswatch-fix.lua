-- Driven by NeovimTests.swift: Neovim's own code-action path (vim.lsp.buf.code_action, the
-- selection answered as a person would pick it) runs a repair that is no text edit, from the
-- Contents.json entry of the icon; this script writes what the editor saw to RW_OUT.
local common = dofile(vim.env.RW_COMMON)
local log, findings = common.log, common.findings
local messages = 0
vim.lsp.handlers["window/showMessage"] = function(_, result)
  messages = messages + 1
  log("message " .. result.type .. " " .. result.message)
end

local broken = vim.env.RW_BROKEN
log("received " .. tostring(vim.wait(20000, function() return #findings(broken) > 0 end, 50)))

-- The person puts the cursor on the icon's entry and asks for code actions, then picks the one
-- that makes the icon again.
vim.api.nvim_win_set_cursor(0, { tonumber(vim.env.RW_LINE), 0 })
vim.ui.select = function(items, _, on_choice)
  for i, item in ipairs(items) do
    local action = item[2] or item.action or item
    log("offered " .. tostring(action.title))
    if action.title and action.title:find("120x120", 1, true) then
      on_choice(item, i)
      return
    end
  end
  on_choice(nil, nil)
end
vim.lsp.buf.code_action()

log("cleared " .. tostring(vim.wait(30000, function() return #findings(broken) == 0 end, 50)))
vim.wait(10000, function() return messages > 0 end, 50) -- what the server says after the repair
common.finish()
