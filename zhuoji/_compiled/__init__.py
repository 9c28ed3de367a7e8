"""mypyc builds of the modules named in :data:`zhuoji.compiled.MODULES`, made at install.

Nothing here is written by hand: ``setup.py`` compiles ``zhuoji/<name>.py`` to
``zhuoji/_compiled/<name>`` (an extension module), and :func:`zhuoji.compiled.select` decides
whether it runs.  An install without a C compiler leaves this package empty.
"""
