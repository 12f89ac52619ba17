"""makemessages that also extracts `mark("...")`.

Outside the pure rules package, the rules' translation marker is imported as
`mark` (the name `_` is gettext there). xgettext only knows the keywords it is
told, so without this those refusals were never extracted and Spanish phones
read them in English.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=mark"]
